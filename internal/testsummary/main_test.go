package main

import (
	"strings"
	"testing"
)

func TestSummary(t *testing.T) {
	in := strings.Join([]string{
		`{"Action":"start","Package":"p"}`,
		`{"Action":"run","Package":"p","Test":"TestA"}`,
		`{"Action":"output","Package":"p","Test":"TestA","Output":"=== RUN   TestA\n"}`,
		`{"Action":"output","Package":"p","Test":"TestA","Output":"--- PASS: TestA (0.00s)\n"}`,
		`{"Action":"pass","Package":"p","Test":"TestA"}`,
		`{"Action":"output","Package":"p","Test":"TestDB","Output":"=== RUN   TestDB\n"}`,
		`{"Action":"output","Package":"p","Test":"TestDB","Output":"    db_test.go:12: TOOLGEN_TEST_POSTGRES_DSN is not set\n"}`,
		`{"Action":"output","Package":"p","Test":"TestDB","Output":"--- SKIP: TestDB (0.00s)\n"}`,
		`{"Action":"skip","Package":"p","Test":"TestDB"}`,
		`{"Action":"output","Package":"p","Test":"TestDB/x","Output":"    db_test.go:12: TOOLGEN_TEST_POSTGRES_DSN is not set\n"}`,
		`{"Action":"skip","Package":"p","Test":"TestDB/x"}`,
		`{"Action":"output","Package":"p","Test":"TestBad","Output":"    bad_test.go:3: boom\n"}`,
		`{"Action":"output","Package":"p","Test":"TestBad","Output":"--- FAIL: TestBad (0.00s)\n"}`,
		`{"Action":"fail","Package":"p","Test":"TestBad"}`,
		`{"Action":"output","Package":"p","Output":"PASS\n"}`,
		`{"Action":"output","Package":"p","Output":"FAIL\tp\t0.01s\n"}`,
		`{"Action":"fail","Package":"p"}`,
		`{"Action":"output","Package":"q","Test":"TestShort","Output":"    q_test.go:9: short mode\n"}`,
		`{"Action":"skip","Package":"q","Test":"TestShort"}`,
		`{"Action":"output","Package":"q","Output":"ok  \tq\t0.01s\n"}`,
	}, "\n")
	var out strings.Builder
	code := run(strings.NewReader(in), &out)
	want := "    bad_test.go:3: boom\n--- FAIL: TestBad (0.00s)\nFAIL\tp\t0.01s\nok  \tq\t0.01s\n" +
		"skipped 3 tests (2: TOOLGEN_TEST_POSTGRES_DSN is not set; 1: short mode)\n" +
		"1 passed, 1 failed, 3 skipped\n"
	if code != 1 || out.String() != want {
		t.Errorf("exit %d, output\n%s\nwant\n%s", code, out.String(), want)
	}
}
