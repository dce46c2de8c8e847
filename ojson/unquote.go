package ojson

import "unsafe"

// AppendUnquoted appends to b the decoding of body, the text between the
// quotes of a JSON string, as encoding/json decodes it: escapes decoded,
// surrogate pairs joined, a lone surrogate or an invalid UTF-8 byte made
// U+FFFD. body must be well-formed: every backslash starts one of the
// escapes of RFC 8259 (\" \\ \/ \b \f \n \r \t \uXXXX) and no byte is a
// control character or an unescaped quote.
func AppendUnquoted(b []byte, body string) []byte {
	return unquote(b, unsafe.Slice(unsafe.StringData(body), len(body)))
}
