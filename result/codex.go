package result

import (
	"github.com/toolfind/toolfind/codexjs"
	"github.com/toolfind/toolfind/ojson"
)

// CodexScript is the exec script whose output deliverCodex reports: the
// model prints the whole result (seed "Notes on MCP Design": "If the
// script prints the whole result, the model sees both copies of your
// data").
const CodexScript = "text(JSON.stringify(await tools.mcp__server__tool(args)))"

// codexValue is the value a nested MCP call resolves to in Codex's code
// mode: the CallToolResult's content, structuredContent and isError (seed
// "Notes on MCP Design": "Codex passes content, structuredContent, and
// isError to the model's script"; _meta is left out), in that order, each
// only when the server sent it, blocks as sent. The exact JSON shape is
// open in codex.md §7 ("Values returned to JS") [unverified].
func codexValue(r *CallResult) ojson.Value {
	var ms []ojson.Member
	for _, key := range []string{"content", "structuredContent", "isError"} {
		if m, ok := r.Value.Get(key); ok {
			ms = append(ms, ojson.Member{Key: key, Value: m})
		}
	}
	return ojson.ObjectOf(ms...)
}

// deliverCodex is what Codex code mode's model reads after CodexScript:
// the exec header item, then JSON.stringify(result) cut as codex.md §2 says
// (the codexjs package's truncation: over 10,000 tokens × 4 = 40,000 bytes,
// the warning header and the middle cut keeping about 20,000 bytes at each
// end, "…N tokens truncated…" between; §0's second cap).
func deliverCodex(r *CallResult) Delivery {
	d := Delivery{Client: "codex@0.171.0"}
	js := codexValue(r).JS("")
	items := codexjs.Finished(codexjs.ExecOutput{Status: "Script completed", Items: []string{js}, MaxOutputTokens: codexjs.DefaultMaxOutputTokens})
	d.setBlocks([]ShownBlock{{Type: "text", Text: codexjs.ShownText(items)}})
	d.Blocks = nil // the exec items are shown joined (codex.md §0)
	budget := codexjs.DefaultMaxOutputTokens * codexjs.BytesPerToken
	d.Notes = append(d.Notes, "the script "+CodexScript+" prints the whole result; the model only sees what its script prints",
		"_meta is not passed to the script; the JSON shape of a nested call's result is not verified on the real client") // codex.md §7
	if len(js) <= budget {
		d.Verdict = Whole
		d.Detail = "delivered whole: JSON.stringify(result) is " + group(len(js)) + " bytes, within the " + group(budget) + "-byte budget"
		return d
	}
	d.Verdict = Cut
	d.Detail = "cut in the middle: JSON.stringify(result) is " + group(len(js)) + " bytes (" + group((len(js)+3)/4) +
		" tokens) over the " + group(budget) + "-byte budget; the first and last " + group(budget/2) +
		" bytes are kept (whole characters), no file is saved"
	return d
}
