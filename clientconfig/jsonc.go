package clientconfig

// stripJSONC turns JSON with comments (// and /* */) and trailing commas
// into JSON of the same length: every removed byte becomes a space (line
// breaks are kept), so offsets, lines and columns stay those of the file.
// VS Code and OpenCode read their files this way (jsonc-parser).
func stripJSONC(data []byte) []byte {
	out := make([]byte, len(data))
	copy(out, data)
	blank := func(i int) {
		if out[i] != '\n' && out[i] != '\r' {
			out[i] = ' '
		}
	}
	lastComma := -1 // a comma that may turn out to be trailing
	for i := 0; i < len(out); i++ {
		c := out[i]
		switch {
		case c == '"':
			lastComma = -1
			for i++; i < len(out) && out[i] != '"'; i++ {
				if out[i] == '\\' {
					i++
				}
			}
		case c == '/' && i+1 < len(out) && out[i+1] == '/':
			for ; i < len(out) && out[i] != '\n'; i++ {
				blank(i)
			}
		case c == '/' && i+1 < len(out) && out[i+1] == '*':
			j := i + 2
			for j < len(out) && !(out[j] == '*' && j+1 < len(out) && out[j+1] == '/') {
				j++
			}
			end := min(j+2, len(out))
			for k := i; k < end; k++ {
				blank(k)
			}
			i = end - 1
		case c == ',':
			lastComma = i
		case c == '}' || c == ']':
			if lastComma >= 0 {
				out[lastComma] = ' '
			}
			lastComma = -1
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		default:
			lastComma = -1
		}
	}
	return out
}
