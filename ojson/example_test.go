package ojson_test

import (
	"fmt"

	"github.com/toolfind/toolfind/ojson"
)

// A schema prints back as JSON.stringify(JSON.parse(text), null, 2) would:
// member order kept, integer-like keys first, JavaScript number format.
func ExampleValue_JS() {
	v, err := ojson.Parse([]byte(`{"type":"object","properties":{"z":{},"a":{"maximum":1e21}},"2":true}`))
	if err != nil {
		panic(err)
	}
	fmt.Println(v.JS("  "))
	fmt.Println(v.Lookup("properties").Keys())
	// Output:
	// {
	//   "2": true,
	//   "type": "object",
	//   "properties": {
	//     "z": {},
	//     "a": {
	//       "maximum": 1e+21
	//     }
	//   }
	// }
	// [z a]
}

// ObjectValue decodes an object and hands over each member's exact bytes,
// so a caller can keep one member's source text beside the decoded value.
func ExampleDecoder_ObjectValue() {
	d := ojson.NewDecoder([]byte(`{"name": "read_file", "inputSchema": {"type" : "object"}}`))
	var schema []byte
	v, err := d.ObjectValue(func(key string, raw []byte) {
		if key == "inputSchema" {
			schema = raw
		}
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(v.Lookup("name").Str)
	fmt.Println(string(schema))
	// Output:
	// read_file
	// {"type" : "object"}
}
