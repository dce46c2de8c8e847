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
