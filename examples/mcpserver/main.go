// Command mcpserver serves the modules this repository ships as an MCP
// server, over stdio (the default, for desktop clients and IDEs) or
// streamable HTTP:
//
//   - tasks (generated/example): a task list kept in memory;
//   - hitl (generated/hitl): wait_for_approval, with pause points in a
//     SQLite file (-db) or PostgreSQL (-db-driver pgx);
//   - stripe (generated/stripe): gated on a Stripe key in $STRIPE_API_KEY
//     (-stripe-url points it at stripe-mock); without one its tools are
//     absent from tools/list.
//
// Every call runs through runtime.Registry.Dispatch for the user -user
// names (over HTTP, a bearer token's user when the handler is behind the
// go-sdk's auth middleware). A call that needs approval (a destructive
// Stripe call, wait_for_approval) pauses; a client that supports
// elicitation asks the person and the call resumes once.
//
//	go run ./examples/mcpserver                       # stdio
//	go run ./examples/mcpserver -http 127.0.0.1:8080  # streamable HTTP at /mcp
//	go run ./examples/mcpserver -http :8080 -stateless -db-driver pgx -db "$DSN"
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/generated/example"
	"github.com/toolgen/toolgen/generated/hitl"
	_ "github.com/toolgen/toolgen/generated/hitl/postgres" // -db-driver pgx
	_ "github.com/toolgen/toolgen/generated/hitl/sqlite"   // -db-driver sqlite
	"github.com/toolgen/toolgen/generated/stripe"
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/mcp"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "mcpserver:", err)
		os.Exit(1)
	}
}

// config is what the flags say.
type config struct {
	user      string
	dbDriver  string
	db        string
	http      string
	stateless bool
	stripeKey string
	stripeURL string
}

func run() error {
	var c config
	flag.StringVar(&c.user, "user", os.Getenv("USER"), "the user every call runs for (owner of its pause points)")
	flag.StringVar(&c.dbDriver, "db-driver", "sqlite", "pause point store: sqlite or pgx (PostgreSQL)")
	flag.StringVar(&c.db, "db", "", "pause point database (default: toolgen-mcpserver.db in the user's cache directory)")
	flag.StringVar(&c.http, "http", "", "serve streamable HTTP at this address (path /mcp) instead of stdio")
	flag.BoolVar(&c.stateless, "stateless", false, "with -http: keep no session state (for several instances on one PostgreSQL)")
	flag.StringVar(&c.stripeURL, "stripe-url", "", "Stripe API base URL (stripe-mock); the key comes from $STRIPE_API_KEY")
	flag.Parse()
	if flag.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", flag.Args())
	}
	c.stripeKey = os.Getenv("STRIPE_API_KEY")
	if c.user == "" {
		c.user = "local"
	}
	if c.db == "" && c.dbDriver == "sqlite" {
		dir, err := os.UserCacheDir()
		if err != nil {
			dir = os.TempDir()
		}
		c.db = filepath.Join(dir, "toolgen-mcpserver.db")
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	// stdout is the protocol's over stdio: logs go to stderr.
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	srv, closeAll, err := newServer(ctx, c, logger)
	if err != nil {
		return err
	}
	defer closeAll()

	if c.http == "" {
		err := srv.Run(ctx, &sdk.StdioTransport{})
		if errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) {
			return nil
		}
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", srv.HTTPHandler(&sdk.StreamableHTTPOptions{Stateless: c.stateless}))
	hs := &http.Server{Addr: c.http, Handler: mux}
	go func() {
		<-ctx.Done()
		hs.Close()
	}()
	logger.Warn("mcpserver: serving streamable HTTP", "url", "http://"+c.http+"/mcp")
	if err := hs.ListenAndServe(); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// newServer builds the registry of the shipped modules and its MCP server.
func newServer(ctx context.Context, c config, logger *slog.Logger) (*mcp.Server, func(), error) {
	store, err := hitl.Open(ctx, c.dbDriver, c.db, hitl.Options{})
	if err != nil {
		return nil, nil, err
	}
	keys := stripe.KeySourceFunc(func(context.Context, *runtime.Call) (string, bool, error) {
		return c.stripeKey, c.stripeKey != "", nil
	})
	reg := runtime.NewRegistry(runtime.Options{
		Gates:     stripe.Gates(keys, nil),
		Approvals: store,
		Logger:    logger,
	})
	for _, m := range []*runtime.Module{
		example.Module(example.New()),
		hitl.Module(&hitl.Tools{Store: store}),
		stripe.Module(&stripe.Tools{Keys: keys, BaseURL: c.stripeURL, Logger: logger}),
	} {
		if err := reg.AddModule(m); err != nil {
			store.Close()
			return nil, nil, err
		}
	}
	srv := mcp.NewServer(reg, mcp.ServerOptions{
		Name:    "toolgen-mcpserver",
		Version: "1",
		Identify: func(_ context.Context, r mcp.Request) (*runtime.Call, error) {
			user := c.user
			if r.TokenInfo != nil && r.TokenInfo.UserID != "" {
				user = r.TokenInfo.UserID
			}
			return &runtime.Call{UserID: user, ConversationID: "mcp:" + r.SessionID}, nil
		},
		Resolve: func(ctx context.Context, call *runtime.Call, id string, approve bool, note string) error {
			_, err := store.Resolve(ctx, id, hitl.Resolution{Approve: approve, Note: note, By: call.UserID})
			return err
		},
		Logger: logger,
	})
	return srv, func() { srv.Close(); store.Close() }, nil
}
