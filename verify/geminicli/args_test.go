package geminicli

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolfind/toolfind/ojson"
)

func TestArgsFor(t *testing.T) {
	for _, c := range []struct{ schema, want string }{
		{`{"type":"object"}`, `{}`},
		{`{"type":"object","properties":{"a":{"type":"string"}}}`, `{}`}, // only required ones
		{`{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer","minimum":3},"c":{"type":"boolean"},"d":{"type":["null","number"]}},"required":["a","b","c","d"]}`,
			`{"a":"x","b":3,"c":false,"d":1}`},
		{`{"type":"object","properties":{"e":{"enum":["z","y"]},"k":{"const":7},"f":{"default":"dflt"},"g":{"examples":[[1]]}},"required":["e","k","f","g"]}`,
			`{"e":"z","k":7,"f":"dflt","g":[1]}`},
		{`{"type":"object","properties":{"m":{"type":"string","format":"email"},"u":{"type":"string","format":"uri"},"l":{"type":"string","minLength":3}},"required":["m","u","l"]}`,
			`{"m":"a@example.com","u":"https://example.com/","l":"xxx"}`},
		// a pattern the plain value misses: the first candidate that matches
		{`{"type":"object","properties":{"p":{"type":"string","pattern":"^[0-9a-fA-F]+$","minLength":4}},"required":["p"]}`, `{"p":"0000"}`},
		{`{"type":"object","properties":{"n":{"type":"number","exclusiveMinimum":0.5,"maximum":9}},"required":["n"]}`, `{"n":2}`},
		{`{"type":"object","properties":{"arr":{"type":"array","minItems":2,"items":{"type":"integer"}}},"required":["arr"]}`, `{"arr":[1,1]}`},
		{`{"type":"object","properties":{"o":{"type":"object","properties":{"i":{"type":"string"}},"required":["i"]}},"required":["o"]}`, `{"o":{"i":"x"}}`},
		{`{"type":"object","properties":{"r":{"$ref":"#/$defs/R"},"alt":{"anyOf":[{"type":"integer"},{"type":"string"}]}},"required":["r","alt"],"$defs":{"R":{"type":"boolean"}}}`,
			`{"r":false,"alt":1}`},
		// a recursive $ref stops after 8 steps, two a level (the property,
		// its $ref): four nested objects, then "x"
		{`{"type":"object","properties":{"s":{"$ref":"#"}},"required":["s"]}`, `{"s":{"s":{"s":{"s":{"s":"x"}}}}}`},
		// a required name without a property schema, twice
		{`{"type":"object","required":["q","q"]}`, `{"q":"x"}`},
	} {
		v, err := ojson.Parse([]byte(c.schema))
		assert.NoError(t, err)
		got := ArgsFor(v)
		assert.Equal(t, c.want, got, c.schema)
		assert.True(t, json.Valid([]byte(got)))
	}
}

// FuzzParseRequest: any body parses or fails with an error; the
// declarations and responses of a parsed one can be read.
func FuzzParseRequest(f *testing.F) {
	f.Add(`{"contents":[{"role":"user","parts":[{"text":"x"}]},{"role":"user","parts":[{"functionResponse":{"id":"1","name":"n","response":{"output":"o"}}},{"inlineData":{"mimeType":"image/png","data":"AA"}}]}],"tools":[{"functionDeclarations":[{"name":"a"}]}]}`)
	f.Add(`{"contents":null,"tools":[{}]}`)
	f.Add(`[]`)
	f.Fuzz(func(t *testing.T, body string) {
		r, err := ParseRequest([]byte(body))
		if err != nil {
			return
		}
		_ = r.Declarations()
		for _, rp := range r.responses() {
			_ = rp.Name
		}
	})
}

func ExampleArgsFor() {
	v, _ := ojson.Parse([]byte(`{"type":"object","properties":{"id":{"type":"string","pattern":"^[0-9]+$"},"limit":{"type":"integer","default":10}},"required":["id","limit"]}`))
	fmt.Println(ArgsFor(v))
	// Output: {"id":"0","limit":10}
}
