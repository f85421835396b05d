package gen

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/spec"
)

const agentSpec = `toolgen: 1
provider: research
package: main
tools:
  - name: research_topic
    description: Research a topic with a sub-agent.
    kind: agent
    status: "Researching {topic}"
    prompt: "Research {topic} for {audience} in {lang|English} with at most {max_sources} sources (deep: {deep}, min score {min_score}, since {since|any time}).\nAnswer as {{\"summary\": ...}}."
    params:
      topic: {type: string}
      audience: {type: string}
      lang: {type: string, enum: [English, German]}
      max_sources: {type: integer, minimum: 1, default: 5}
      deep: {type: boolean, default: false}
      min_score: {type: number, default: 0.25}
      since: {type: string, format: date-time}
    required: [topic]
  - name: research_delegate
    description: Hand a task to a sub-agent.
    kind: agent
    params:
      task: {type: string}
    required: [task]
`

// agentMain implements the generated Executor with fake sub-agents and
// dispatches the agent tools through a registry, printing what the agents
// received and what the model and the host saw.
const agentMain = `package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/toolgen/toolgen/runtime"
)

var prompts []string

// fake is a sub-agent that records its prompt, reports one event of its
// own and answers with a JSON object, or fails when told to.
func fake(fail bool, answer string) runtime.Agent {
	return runtime.AgentFunc(func(ctx context.Context, prompt string, events func(runtime.Event)) (runtime.AgentResult, error) {
		prompts = append(prompts, prompt)
		events(runtime.Event{Type: runtime.EventProgress, Message: "reading sources"})
		if fail {
			return runtime.AgentResult{Error: "no sources found", Usage: runtime.Usage{InputTokens: 4}}, nil
		}
		return runtime.AgentResult{OK: true, Response: map[string]string{"summary": answer}, Usage: runtime.Usage{InputTokens: 10, OutputTokens: 3}}, nil
	})
}

type impl struct{}

func (impl) Topic(ctx context.Context, call *runtime.Call, args *TopicArgs) (runtime.Agent, error) {
	if args.Topic == "refuse" {
		return nil, errors.New("topic refused")
	}
	return fake(args.Topic == "fail", "about "+args.Topic), nil
}

func (impl) Delegate(ctx context.Context, call *runtime.Call, args *DelegateArgs) (runtime.Agent, error) {
	return fake(false, "did "+args.Task), nil
}

func main() {
	reg := runtime.NewRegistry(runtime.Options{})
	if err := reg.AddModule(Module(impl{})); err != nil {
		panic(err)
	}
	for _, t := range reg.Executable() {
		fmt.Println("tool", t.Name, t.Kind, t.Provider, t.ResultSchema == nil)
	}
	var events []string
	var usage runtime.Usage
	call := &runtime.Call{
		Events: func(e runtime.Event) {
			s := string(e.Type) + " " + e.Tool
			if e.Child != nil {
				s += " <- " + string(e.Child.Type) + " " + e.Child.Message
			}
			events = append(events, s)
		},
		Usage: func(u runtime.Usage) { usage = usage.Add(u) },
	}
	for i, c := range []struct{ name, args string }{
		{"research_topic", ` + "`" + `{"topic":"Go generics","audience":"students","lang":"German","deep":true,"since":"2024-01-31T09:30:00.5Z"}` + "`" + `},
		{"research_topic", ` + "`" + `{"topic":"fail","audience":"x","max_sources":2}` + "`" + `},
		{"research_topic", ` + "`" + `{"topic":"refuse","audience":"x"}` + "`" + `},
		{"research_topic", ` + "`" + `{"topic":"no audience"}` + "`" + `},
		{"research_delegate", ` + "`" + `{"task":"a \"quoted\" thing"}` + "`" + `},
	} {
		events, usage, prompts = nil, runtime.Usage{}, nil
		out, err := reg.Dispatch(context.Background(), call, runtime.ToolCall{ID: fmt.Sprint(i), Name: c.name, Arguments: []byte(c.args)})
		if err != nil {
			panic(err)
		}
		fmt.Printf("== %s %s\nlabel: %s\nprompt: %q\nresult: %s (%s)\nevents: %s\nusage: %+v\n",
			c.name, c.args, out.Label, prompts, out.Result.String(), out.Status, strings.Join(events, "; "), usage)
	}

	// When a placeholder without a fallback has no value, the prompt is the
	// runtime's own default prompt for the same input.
	t, _ := reg.Get("research_topic")
	args, err := t.DecodeArgs([]byte(` + "`" + `{"topic":"no audience"}` + "`" + `))
	if err != nil {
		panic(err)
	}
	prompts = nil
	for _, prompt := range []func(any) string{topicPrompt, nil} {
		exec := runtime.AgentExecute("ref", func(ctx context.Context, input any, call *runtime.Call) (runtime.Agent, error) {
			return fake(false, ""), nil
		}, prompt)
		if _, err := exec(context.Background(), nil, args); err != nil {
			panic(err)
		}
	}
	fmt.Println("same as the runtime default:", len(prompts) == 2 && prompts[0] == prompts[1])
	fmt.Printf("wrong argument type: %q\n", topicPrompt(42))
}
`

// TestAgentToolGenerated: a kind: agent tool's executor method makes the
// sub-agent; the generated module runs it through runtime.AgentExecute with
// the prompt rendered from the spec's template (or the runtime's default
// prompt), as a tool of kind agent whose child events and usage reach the
// host. The generated code is built and run.
func TestAgentToolGenerated(t *testing.T) {
	f, err := spec.Parse("research.tools.yaml", []byte(agentSpec))
	if err != nil {
		t.Fatal(err)
	}
	src, err := Code(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"\t// Topic creates a fresh sub-agent for one call of the research_topic tool:\n" +
			"\t// Research a topic with a sub-agent.\n" +
			"\tTopic(ctx context.Context, call *runtime.Call, args *TopicArgs) (runtime.Agent, error)\n",
		"t.Execute = runtime.AgentExecute(ToolTopic, func(ctx context.Context, args any, call *runtime.Call) (runtime.Agent, error) {",
		"}, topicPrompt)\n",
		"}, nil)\n",
		"Kind:        runtime.KindAgent,",
	} {
		if !strings.Contains(string(src), want) {
			t.Errorf("generated code lacks %q:\n%s", want, src)
		}
	}
	if strings.Contains(string(src), "delegatePrompt") {
		t.Error("a prompt function was generated for the tool without a prompt")
	}
	if testing.Short() {
		t.Skip("runs the go command")
	}
	tmp, err := os.MkdirTemp("testdata", "agent-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	if err := os.WriteFile(filepath.Join(tmp, "research_tools.gen.go"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tmp, "main.go"), []byte(agentMain), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", "run", "./"+filepath.ToSlash(tmp)).CombinedOutput()
	if err != nil {
		t.Fatalf("go run: %v\n%s", err, out)
	}
	want := `tool research_topic agent research true
tool research_delegate agent research true
== research_topic {"topic":"Go generics","audience":"students","lang":"German","deep":true,"since":"2024-01-31T09:30:00.5Z"}
label: Researching Go generics
prompt: ["Research Go generics for students in German with at most 5 sources (deep: true, min score 0.25, since 2024-01-31T09:30:00.5Z).\nAnswer as {\"summary\": ...}."]
result: {"summary":"about Go generics"} (ok)
events: start research_topic; child research_topic <- progress reading sources; finish research_topic
usage: {InputTokens:10 OutputTokens:3 Cost:0}
== research_topic {"topic":"fail","audience":"x","max_sources":2}
label: Researching fail
prompt: ["Research fail for x in English with at most 2 sources (deep: false, min score 0.25, since any time).\nAnswer as {\"summary\": ...}."]
result: Error: Subagent failed: no sources found (error)
events: start research_topic; child research_topic <- progress reading sources; finish research_topic
usage: {InputTokens:4 OutputTokens:0 Cost:0}
== research_topic {"topic":"refuse","audience":"x"}
label: Researching refuse
prompt: []
result: Error: topic refused (error)
events: start research_topic; finish research_topic
usage: {InputTokens:0 OutputTokens:0 Cost:0}
== research_topic {"topic":"no audience"}
label: Researching no audience
prompt: ["Complete this delegated task. Input: {\"topic\":\"no audience\",\"max_sources\":5,\"deep\":false,\"min_score\":0.25}"]
result: {"summary":"about no audience"} (ok)
events: start research_topic; child research_topic <- progress reading sources; finish research_topic
usage: {InputTokens:10 OutputTokens:3 Cost:0}
== research_delegate {"task":"a \"quoted\" thing"}
label: research_delegate
prompt: ["Complete this delegated task. Input: {\"task\":\"a \\\"quoted\\\" thing\"}"]
result: {"summary":"did a \"quoted\" thing"} (ok)
events: start research_delegate; child research_delegate <- progress reading sources; finish research_delegate
usage: {InputTokens:10 OutputTokens:3 Cost:0}
same as the runtime default: true
wrong argument type: "Complete this delegated task. Input: 42"
`
	if got := string(out); got != want {
		t.Errorf("output\n got %s\nwant %s", got, want)
	}
}

// TestPromptDefaultIsRuntimes: the default prompt a generated prompt
// function falls back to is the runtime's own default prompt.
func TestPromptDefaultIsRuntimes(t *testing.T) {
	var got string
	exec := runtime.AgentExecute("t", func(ctx context.Context, input any, call *runtime.Call) (runtime.Agent, error) {
		return runtime.AgentFunc(func(ctx context.Context, prompt string, events func(runtime.Event)) (runtime.AgentResult, error) {
			got = prompt
			return runtime.AgentResult{OK: true}, nil
		}), nil
	}, nil)
	if _, err := exec(context.Background(), nil, map[string]int{"a": 1}); err != nil {
		t.Fatal(err)
	}
	if want := "Complete this delegated task. Input: " + `{"a":1}`; got != want || runtime.DefaultAgentPrompt(map[string]int{"a": 1}) != want {
		t.Errorf("runtime default prompt %q, want %q", got, want)
	}
}
