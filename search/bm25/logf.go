package bm25

import "math"

// Lnf32 is the natural logarithm in float32 exactly as glibc's and musl's
// logf compute it (both use ARM's optimized-routines logf: a 16-entry
// table of 1/c and ln c, a degree-3 polynomial for log1p(z/c − 1), all in
// float64, one final rounding to float32). That is what Rust's f32::ln
// returns in a Linux build of the crate. It is not the correctly rounded
// ln: for idf arguments with N ≤ 3000 it differs from
// float32(math.Log(float64(x))) in 44,704 of 4,504,500 cases by one ulp
// (e.g. N = 17, n = 17: 0.028170932, not 0.028170934), and a one-ulp idf
// difference can split or merge a tie. testdata/logf.txt holds such cases
// as produced by Rust's f32::ln.
//
// Only positive normal finite inputs occur in BM25 (x > 1); others fall
// back to math.Log.
func Lnf32(x float32) float32 {
	ix := math.Float32bits(x)
	if ix == 0x3f800000 { // ln 1 = 0 exactly
		return 0
	}
	if ix-0x00800000 >= 0x7f800000-0x00800000 { // zero, subnormal, negative, inf, NaN
		return float32(math.Log(float64(x)))
	}
	// x = 2^k · z with z in [OFF, 2·OFF), OFF = 0x3f330000 (≈ 0.7);
	// the table index is the top 4 mantissa bits of z.
	tmp := ix - 0x3f330000
	i := (tmp >> (23 - 4)) % 16
	k := int32(tmp) >> 23
	iz := ix - (tmp & 0xff800000)
	invc, logc := logfTab[i][0], logfTab[i][1]
	z := float64(math.Float32frombits(iz))
	// ln x = log1p(z/c − 1) + ln c + k·ln 2. float64(...) around each
	// product forbids fused multiply-adds (the fused variant was checked
	// to give the same results on the idf domain).
	r := float64(z*invc) - 1
	y0 := logc + float64(float64(k)*logfLn2)
	r2 := float64(r * r)
	y := float64(logfA1*r) + logfA2
	y = float64(logfA0*r2) + y
	y = float64(y*r2) + (y0 + r)
	return float32(y)
}

// logfTab is __logf_data.tab: {1/c, ln c} for the 16 subintervals.
var logfTab = [16][2]float64{
	{0x1.661ec79f8f3bep+0, -0x1.57bf7808caadep-2},
	{0x1.571ed4aaf883dp+0, -0x1.2bef0a7c06ddbp-2},
	{0x1.49539f0f010bp+0, -0x1.01eae7f513a67p-2},
	{0x1.3c995b0b80385p+0, -0x1.b31d8a68224e9p-3},
	{0x1.30d190c8864a5p+0, -0x1.6574f0ac07758p-3},
	{0x1.25e227b0b8eap+0, -0x1.1aa2bc79c81p-3},
	{0x1.1bb4a4a1a343fp+0, -0x1.a4e76ce8c0e5ep-4},
	{0x1.12358f08ae5bap+0, -0x1.1973c5a611cccp-4},
	{0x1.0953f419900a7p+0, -0x1.252f438e10c1ep-5},
	{0x1p+0, 0x0p+0},
	{0x1.e608cfd9a47acp-1, 0x1.aa5aa5df25984p-5},
	{0x1.ca4b31f026aap-1, 0x1.c5e53aa362eb4p-4},
	{0x1.b2036576afce6p-1, 0x1.526e57720db08p-3},
	{0x1.9c2d163a1aa2dp-1, 0x1.bc2860d22477p-3},
	{0x1.886e6037841edp-1, 0x1.1058bc8a07ee1p-2},
	{0x1.767dcf5534862p-1, 0x1.4043057b6ee09p-2},
}

// __logf_data.ln2 and .poly.
const (
	logfLn2 = 0x1.62e42fefa39efp-1
	logfA0  = -0x1.00ea348b88334p-2
	logfA1  = 0x1.5575b0be00b6ap-2
	logfA2  = -0x1.ffffef20a4123p-2
)
