package model_test

import (
	"context"
	"fmt"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/writer"
	"github.com/toolfind/toolfind/writer/model"
)

// echo is a Backend that searches for the prompt's first word.
type echo struct{}

func (echo) Ask(_ context.Context, req model.Request, prompt string) (model.Answer, error) {
	var word string
	fmt.Sscan(prompt, &word)
	a := model.ToolCall(req.Tools[0].Name, fmt.Sprintf(`{"query": %q}`, word), req)
	a.InputTokens, a.OutputTokens = 100, 8
	return a, nil
}

// The writer's core takes any Backend: the official SDKs' (package
// writer/model/sdk) or one's own. It renders the client's request once, and keeps the
// cache, the retries and the totals.
func ExampleNew() {
	p, _ := search.Lookup("claude@2.1.328")
	sim, _ := search.Build(p, corpus.Demo(), nil)
	w, _ := model.New(model.Config{API: model.OpenAI, Model: "echo"}, echo{})
	calls, _ := w.Calls(context.Background(), sim, writer.Prompt{ID: "q1", Text: "invoice for order 1042"})
	fmt.Println(string(calls[0]))
	fmt.Printf("%+v\n", w.Stats())
	// Output:
	// {"query":"invoice"}
	// {Calls:1 NoCall:0 Cached:0 Requests:1 Retries:0 InputTokens:100 OutputTokens:8 Cost:0}
}
