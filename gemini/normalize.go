package gemini

import "github.com/toolfind/toolfind/ojson"

// NormalizeResult is a CallToolResult as the MCP SDK inside Gemini CLI
// 0.61.0 hands it over after its zod parse (CallToolResultSchema), which
// the error message of an isError result quotes (§4.1): the top level
// keeps unknown keys (a loose object) after the known ones in the order
// _meta, content (default []), structuredContent, isError; each content
// block keeps only its schema's keys, in schema order —
//
//	text           type, text, _meta
//	image, audio   type, data, mimeType, _meta
//	resource       type, resource {uri, mimeType, _meta, text | blob}, _meta
//	resource_link  name, title, icons, uri, description, mimeType, _meta, type
//
// A block of another type is kept as it is.
func NormalizeResult(r ojson.Value) ojson.Value {
	r = r.Dedup()
	if r.Kind != ojson.Object {
		return r
	}
	var ms []ojson.Member
	add := func(v ojson.Value, key string) {
		if x, ok := v.Get(key); ok {
			ms = append(ms, ojson.Member{Key: key, Value: x})
		}
	}
	add(r, "_meta")
	content, ok := r.Get("content")
	if !ok {
		content = ojson.ArrayOf()
	}
	if content.Kind == ojson.Array {
		blocks := make([]ojson.Value, 0, content.Len())
		for _, b := range content.Array() {
			blocks = append(blocks, normalizeBlock(b))
		}
		content = ojson.ArrayOf(blocks...)
	}
	ms = append(ms, ojson.Member{Key: "content", Value: content})
	add(r, "structuredContent")
	add(r, "isError")
	for _, m := range r.Members() {
		switch m.Key {
		case "_meta", "content", "structuredContent", "isError":
		default:
			ms = append(ms, m)
		}
	}
	return ojson.ObjectOf(ms...)
}

// blockKeys are the zod shapes of the content blocks.
var blockKeys = map[string][]string{
	"text":          {"type", "text", "_meta"},
	"image":         {"type", "data", "mimeType", "_meta"},
	"audio":         {"type", "data", "mimeType", "_meta"},
	"resource":      {"type", "resource", "_meta"},
	"resource_link": {"name", "title", "icons", "uri", "description", "mimeType", "_meta", "type"},
}

func normalizeBlock(b ojson.Value) ojson.Value {
	t, _ := b.Get("type")
	keys, ok := blockKeys[t.Str()]
	if b.Kind != ojson.Object || t.Kind != ojson.String || !ok {
		return b
	}
	return pick(b, keys, func(key string, v ojson.Value) ojson.Value {
		if t.Str() == "resource" && key == "resource" && v.Kind == ojson.Object {
			last := "blob"
			if x, ok := v.Get("text"); ok && x.Kind == ojson.String {
				last = "text" // the union tries TextResourceContents first
			}
			return pick(v, []string{"uri", "mimeType", "_meta", last}, nil)
		}
		return v
	})
}

// pick keeps the keys present, in order, mapping each value through f.
func pick(v ojson.Value, keys []string, f func(string, ojson.Value) ojson.Value) ojson.Value {
	var ms []ojson.Member
	for _, k := range keys {
		if x, ok := v.Get(k); ok {
			if f != nil {
				x = f(k, x)
			}
			ms = append(ms, ojson.Member{Key: k, Value: x})
		}
	}
	return ojson.ObjectOf(ms...)
}
