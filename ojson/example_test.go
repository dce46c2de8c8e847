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
	fmt.Println(v.Lookup("name").Str())
	fmt.Println(string(schema))
	// Output:
	// read_file
	// {"type" : "object"}
}

// Values are built with StringOf, NumberOf, ArrayOf and ObjectOf and read
// with Str, Array and Members; Equal compares them.
func ExampleObjectOf() {
	v := ojson.ObjectOf(
		ojson.Member{Key: "type", Value: ojson.StringOf("text")},
		ojson.Member{Key: "sizes", Value: ojson.ArrayOf(ojson.NumberOf("1.50"), ojson.Value{Kind: ojson.Null})},
	)
	fmt.Println(v.JS(""))
	for _, m := range v.Members() {
		fmt.Println(m.Key, m.Value.Kind, m.Value.Len())
	}
	fmt.Println(v.Lookup("sizes").Array()[0].Str())
	w, _ := ojson.Parse([]byte(`{"type": "text", "sizes": [1.50, null]}`))
	fmt.Println(ojson.Equal(v, w))
	// Output:
	// {"type":"text","sizes":[1.5,null]}
	// type string 0
	// sizes array 2
	// 1.50
	// true
}

// A program that keeps the values of many documents (a catalog of many
// files) reads them with one decoder: Reset starts the next document, and
// its values are cut from the same slabs as the earlier ones, which stay
// valid.
func ExampleDecoder_Reset() {
	d := ojson.NewDecoder(nil)
	var docs []ojson.Value
	for _, data := range []string{`{"name":"a","n":[1,2]}`, `{"name":"b","n":[3]}`} {
		d.Reset([]byte(data))
		v, err := d.Value()
		if err != nil {
			panic(err)
		}
		docs = append(docs, v)
	}
	for _, v := range docs {
		fmt.Println(v.Lookup("name").Str(), v.Lookup("n").JS(""))
	}
	// Output:
	// a [1,2]
	// b [3]
}
