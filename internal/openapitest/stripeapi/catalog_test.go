package stripeapi

import (
	"context"
	"testing"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/httpapi"
)

// TestCatalogSize encodes the imported tools' catalog in every dialect
// and logs its size (the figures in the closing note); each must hold all
// 24 tools.
func TestCatalogSize(t *testing.T) {
	creds := httpapi.CredentialFunc(func(ctx context.Context, call *runtime.Call) (httpapi.Credentials, bool, error) {
		return httpapi.Credentials{Token: "sk_test"}, true, nil
	})
	reg := runtime.NewRegistry(runtime.Options{Gates: Gates(creds, nil)})
	m := Module(&Tools{}, &httpapi.Client{Credentials: creds})
	if err := reg.AddModule(m); err != nil {
		t.Fatal(err)
	}
	for _, d := range []runtime.Dialect{runtime.DialectOpenAI, runtime.DialectOpenAIChat, runtime.DialectAnthropic, runtime.DialectGemini, runtime.DialectMCP} {
		for _, strict := range []bool{false, true} {
			if strict && d != runtime.DialectOpenAI {
				continue
			}
			js, err := reg.EncodeCatalog(context.Background(), &runtime.Call{UserID: "u"}, d, runtime.EncodeOptions{Strict: strict})
			if err != nil {
				t.Fatalf("%s: %v", d, err)
			}
			if len(js) < 1000 {
				t.Errorf("%s: %d bytes", d, len(js))
			}
			t.Logf("%s strict=%v: %d tools, %d bytes (%d per tool)", d, strict, len(m.Tools), len(js), len(js)/len(m.Tools))
		}
	}
}
