package gen

func init() { goldenCases = append(goldenCases, "mcp") }
