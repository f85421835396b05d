// Package nativecatalog is a legacy "native catalog": the tools a host wrote
// by hand before it moved to toolgen modules, served by one switch over the
// tool name. It shows the migration path of the provider-modules design:
//
//	reg := runtime.NewRegistry(runtime.Options{Fallback: legacy})
//	reg.AddModule(example.Module(example.New())) // modules first
//
// The registry looks a name up among its modules first and hands only the
// names no module owns to the catalog's Dispatch (runtime.Fallback). Tools
// move into modules one at a time: once a module registers a name, its
// calls go to the module even though the legacy switch still has a case for
// it, and removing the module's tool (Registry.Remove) sends the name back
// to the switch. Here tasks_list is such a migrated tool: generated/example
// owns it now, and the legacy case below is dead code waiting for deletion.
package nativecatalog

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"time"
	_ "time/tzdata" // get_time knows every zone, also where the system has no zoneinfo

	"github.com/toolgen/toolgen/runtime"
)

// The names of the legacy tools.
const (
	// ToolGetTime tells the current time in a time zone.
	ToolGetTime = "get_time"
	// ToolEcho repeats a text back.
	ToolEcho = "echo"
	// ToolTasksList is the legacy task listing. The example module
	// (generated/example) owns this name now; the case stays until the
	// migration is done.
	ToolTasksList = "tasks_list"
)

// Catalog is the legacy native catalog. It implements runtime.Fallback.
// The zero value is usable; it is safe for concurrent use as long as its
// fields are not changed.
type Catalog struct {
	// Now is get_time's clock. Nil: time.Now.
	Now func() time.Time
	// Tasks are the task titles of the legacy task store, for the legacy
	// tasks_list.
	Tasks []string
}

var _ runtime.Fallback = (*Catalog)(nil)

// definitions are the legacy tools' schemas, as the model sees them.
var definitions = []runtime.Definition{
	{
		Name:        ToolGetTime,
		Description: "Tell the current date and time in a time zone.",
		Parameters:  json.RawMessage(`{"additionalProperties":false,"properties":{"timezone":{"description":"IANA time zone (Europe/Paris); default UTC.","type":"string"}},"type":"object"}`),
	},
	{
		Name:        ToolEcho,
		Description: "Repeat a text back, unchanged.",
		Parameters:  json.RawMessage(`{"additionalProperties":false,"properties":{"text":{"description":"The text to repeat.","maxLength":1000,"minLength":1,"type":"string"}},"required":["text"],"type":"object"}`),
	},
	{
		Name:        ToolTasksList,
		Description: "List the tasks of the legacy task store.",
		Parameters:  json.RawMessage(`{"additionalProperties":false,"properties":{},"type":"object"}`),
	},
}

// Names returns the names the legacy switch serves, in catalog order.
func (c *Catalog) Names() []string {
	names := make([]string, len(definitions))
	for i, d := range definitions {
		names[i] = d.Name
	}
	return names
}

// Definitions returns the definitions of the legacy tools that no module
// owns (owned reports a registered name; nil: none is), for the catalog the
// model sees after the registry's own. Pass Registry.Has, so that a name
// a module took over is described by the module only — also to a user for
// whom that module's gate is closed.
func (c *Catalog) Definitions(owned func(name string) bool) []runtime.Definition {
	var out []runtime.Definition
	for _, d := range definitions {
		if owned == nil || !owned(d.Name) {
			out = append(out, d)
		}
	}
	return out
}

// Label returns the legacy status label of a call (the native catalog's
// counterpart of a module's status labels). It never fails.
func Label(name string, args json.RawMessage) string {
	switch name {
	case ToolGetTime:
		var a getTimeArgs
		if json.Unmarshal(args, &a) == nil && a.Timezone != "" {
			return "Checking the time in " + a.Timezone
		}
		return "Checking the time"
	case ToolEcho:
		return "Echoing"
	case ToolTasksList:
		return "Listing legacy tasks"
	}
	return name
}

// Dispatch runs tc when the legacy switch has a case for its name and
// reports ok=false otherwise (the registry then tells the model the tool is
// unknown). The runtime emits no events for fallback calls, so Dispatch
// emits the call's start event (with Label) and finish event itself. Bad
// arguments are a runtime.ErrInvalidArgs tool error listing every
// violation.
func (c *Catalog) Dispatch(ctx context.Context, call *runtime.Call, tc runtime.ToolCall) (runtime.Result, bool, error) {
	var run func(context.Context, json.RawMessage) (runtime.Result, error)
	switch tc.Name {
	case ToolGetTime:
		run = c.getTime
	case ToolEcho:
		run = c.echo
	case ToolTasksList:
		run = c.tasksList
	default:
		return runtime.Result{}, false, nil
	}
	args := tc.Arguments
	if len(strings.TrimSpace(string(args))) == 0 || string(args) == "null" {
		args = json.RawMessage(`{}`)
	}
	start := time.Now()
	label := Label(tc.Name, args)
	call.Emit(runtime.Event{Type: runtime.EventStart, Label: label})
	res, err := run(ctx, args)
	status := runtime.StatusOK
	var pause *runtime.PauseError
	switch {
	case errors.As(err, &pause):
		status = runtime.StatusPaused
	case err != nil && runtime.IsFatal(err):
		status = runtime.StatusFatal
	case err != nil || res.IsError:
		status = runtime.StatusError
	}
	call.Emit(runtime.Event{Type: runtime.EventFinish, Label: label, Status: status, Duration: time.Since(start)})
	return res, true, err
}

type getTimeArgs struct {
	Timezone string `json:"timezone"`
}

func (c *Catalog) getTime(ctx context.Context, data json.RawMessage) (runtime.Result, error) {
	a, err := decode[getTimeArgs](ToolGetTime, data, nil)
	if err != nil {
		return runtime.Result{}, err
	}
	zone := a.Timezone
	if zone == "" {
		zone = "UTC"
	}
	loc, err := time.LoadLocation(zone)
	if err != nil || zone == "Local" {
		return runtime.Result{}, invalidArgs(ToolGetTime, runtime.Violation{Path: "$.timezone",
			Message: "unknown time zone " + jsonQuote(zone) + "; use an IANA name such as Europe/Paris"})
	}
	now := time.Now
	if c.Now != nil {
		now = c.Now
	}
	t := now().In(loc)
	return runtime.JSON(map[string]string{
		"time":     t.Format(time.RFC3339),
		"weekday":  t.Weekday().String(),
		"timezone": zone,
	})
}

type echoArgs struct {
	Text *string `json:"text"`
}

func (c *Catalog) echo(ctx context.Context, data json.RawMessage) (runtime.Result, error) {
	a, err := decode(ToolEcho, data, func(a *echoArgs) []runtime.Violation {
		switch {
		case a.Text == nil:
			return []runtime.Violation{{Path: "$.text", Message: "is required"}}
		case *a.Text == "":
			return []runtime.Violation{{Path: "$.text", Message: "must not be empty"}}
		case len(*a.Text) > 1000:
			return []runtime.Violation{{Path: "$.text", Message: "must be at most 1000 bytes long"}}
		}
		return nil
	})
	if err != nil {
		return runtime.Result{}, err
	}
	return runtime.Text(*a.Text), nil
}

func (c *Catalog) tasksList(ctx context.Context, data json.RawMessage) (runtime.Result, error) {
	if _, err := decode[struct{}](ToolTasksList, data, nil); err != nil {
		return runtime.Result{}, err
	}
	return runtime.JSON(map[string]any{"tasks": slices.Clone(c.Tasks), "source": "legacy native catalog"})
}

// decode decodes data strictly into a T and validates it, returning an
// ErrInvalidArgs tool error with every violation.
func decode[T any](tool string, data json.RawMessage, validate func(*T) []runtime.Violation) (*T, error) {
	v, err := runtime.DecodeJSON(validate)(data)
	var ve *runtime.ValidationError
	if errors.As(err, &ve) {
		return nil, invalidArgs(tool, ve.Violations...)
	}
	if err != nil {
		return nil, err
	}
	return v.(*T), nil
}

// invalidArgs reports violations as the runtime reports a module tool's.
func invalidArgs(tool string, vs ...runtime.Violation) error {
	var b strings.Builder
	b.WriteString("invalid arguments for " + tool + ":")
	for _, v := range vs {
		b.WriteString("\n- " + v.String())
	}
	return &runtime.ToolError{Kind: runtime.ErrInvalidArgs, Tool: tool, Message: b.String(), Violations: vs}
}

func jsonQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
