// Package ascii holds the ASCII fast paths of the text-heavy simulators:
// whether a text is all ASCII, and ASCII lowercasing (A–Z to a–z, every
// other byte, non-ASCII bytes included, left as it is). Both work on eight
// bytes at a time (SWAR): a 64-bit word is ASCII when no byte has its top
// bit set; with h the word's low seven bits per byte, the bytes that are
// uppercase letters are those where h + (0x80 − 'A') sets the top bit,
// h + (0x80 − 'Z' − 1) does not, and the original byte is below 0x80; OR-ing
// 0x20 into them lowercases them. No byte's sum carries into the next
// (h ≤ 0x7F, the addend ≤ 0x3F).
package ascii

import (
	"encoding/binary"
	"unsafe"
)

const (
	ones = 0x0101010101010101
	high = 0x80 * ones
)

// Is reports whether s has only bytes below 0x80.
func Is(s string) bool { return IsBytes(unsafe.Slice(unsafe.StringData(s), len(s))) }

// IsBytes reports whether b has only bytes below 0x80.
func IsBytes(b []byte) bool {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		if binary.LittleEndian.Uint64(b[i:])&high != 0 {
			return false
		}
	}
	for ; i < len(b); i++ {
		if b[i] >= 0x80 {
			return false
		}
	}
	return true
}

// AppendLower appends s to dst with A–Z lowercased.
func AppendLower(dst []byte, s string) []byte {
	start := len(dst)
	dst = append(dst, s...)
	LowerInPlace(dst[start:])
	return dst
}

// LowerInPlace lowercases A–Z in b.
func LowerInPlace(b []byte) {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		h := w &^ high
		upper := (h + (0x80-'A')*ones) &^ (h + (0x80-'Z'-1)*ones) &^ w & high
		if upper != 0 {
			binary.LittleEndian.PutUint64(b[i:], w|upper>>2)
		}
	}
	for ; i < len(b); i++ {
		if c := b[i]; 'A' <= c && c <= 'Z' {
			b[i] = c + ('a' - 'A')
		}
	}
}
