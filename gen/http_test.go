package gen

// The http golden case (testdata/golden/http) covers HTTP-bound tools: their
// generated executors and Module's httpapi client parameter.
func init() { goldenCases = append(goldenCases, "http") }
