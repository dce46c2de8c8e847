package copilot

import (
	"strings"
	"unicode/utf8"
)

// Punycode (RFC 3492) parameters.
const (
	pcBase        = 36
	pcTMin        = 1
	pcTMax        = 26
	pcSkew        = 38
	pcDamp        = 700
	pcInitialBias = 72
	pcInitialN    = 128
)

// punycode encodes s (RFC 3492 §6.3) without the "xn--" prefix. Basic code
// points are copied as they are, case kept: the CLI encodes each label
// with the plain algorithm, not with IDNA's case mapping (copilot.md §1.2:
// "Tést" → "xn--Tst-bma", observed).
func punycode(s string) string {
	var out strings.Builder
	runes := []rune(s)
	basic := 0
	for _, r := range runes {
		if r < utf8.RuneSelf {
			out.WriteRune(r)
			basic++
		}
	}
	h := basic
	if basic > 0 {
		out.WriteByte('-')
	}
	n, delta, bias := rune(pcInitialN), 0, pcInitialBias
	for h < len(runes) {
		m := rune(utf8.MaxRune + 1)
		for _, r := range runes {
			if r >= n && r < m {
				m = r
			}
		}
		delta += int(m-n) * (h + 1)
		n = m
		for _, r := range runes {
			if r < n {
				delta++
			}
			if r != n {
				continue
			}
			q := delta
			for k := pcBase; ; k += pcBase {
				t := k - bias
				switch {
				case t < pcTMin:
					t = pcTMin
				case t > pcTMax:
					t = pcTMax
				}
				if q < t {
					break
				}
				out.WriteByte(pcDigit(t + (q-t)%(pcBase-t)))
				q = (q - t) / (pcBase - t)
			}
			out.WriteByte(pcDigit(q))
			bias = pcAdapt(delta, h+1, h == basic)
			delta = 0
			h++
		}
		delta++
		n++
	}
	return out.String()
}

func pcDigit(d int) byte {
	if d < 26 {
		return byte('a' + d)
	}
	return byte('0' + d - 26)
}

func pcAdapt(delta, numPoints int, first bool) int {
	if first {
		delta /= pcDamp
	} else {
		delta /= 2
	}
	delta += delta / numPoints
	k := 0
	for delta > ((pcBase-pcTMin)*pcTMax)/2 {
		delta /= pcBase - pcTMin
		k += pcBase
	}
	return k + (pcBase-pcTMin+1)*delta/(delta+pcSkew)
}
