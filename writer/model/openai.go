package model

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"
)

// backend is one API.
type backend interface {
	ask(ctx context.Context, req request, prompt string) (Answer, error)
}

// openaiAPI speaks Chat Completions through the official SDK.
type openaiAPI struct {
	client openai.Client
	cfg    Config
}

func newOpenAI(cfg Config) *openaiAPI {
	opts := []option.RequestOption{option.WithMaxRetries(0), option.WithAPIKey(cfg.Key)}
	if cfg.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(cfg.BaseURL))
	}
	if cfg.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(cfg.HTTPClient))
	}
	return &openaiAPI{client: openai.NewClient(opts...), cfg: cfg}
}

// params renders the request (package doc, "What is sent").
func (o *openaiAPI) params(req request, prompt string) openai.ChatCompletionNewParams {
	p := openai.ChatCompletionNewParams{Model: shared.ChatModel(o.cfg.Model)}
	if req.System != "" {
		p.Messages = append(p.Messages, openai.SystemMessage(req.System))
	}
	var parts []openai.ChatCompletionContentPartUnionParam
	for _, t := range append(append([]string(nil), req.Parts...), prompt) {
		parts = append(parts, openai.TextContentPart(t))
	}
	p.Messages = append(p.Messages, openai.UserMessage(parts))
	for _, t := range req.Tools {
		p.Tools = append(p.Tools, openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name:        t.Name,
			Description: openai.String(t.Description),
			Parameters:  shared.FunctionParameters(schemaObject(t)),
		}))
	}
	p.ToolChoice = openai.ToolChoiceOptionFunctionToolChoice(openai.ChatCompletionNamedToolChoiceFunctionParam{Name: req.Tools[0].Name})
	if o.cfg.Temperature != nil {
		p.Temperature = openai.Float(*o.cfg.Temperature)
	}
	return p
}

func (o *openaiAPI) ask(ctx context.Context, req request, prompt string) (Answer, error) {
	resp, err := o.client.Chat.Completions.New(ctx, o.params(req, prompt))
	if err != nil {
		var e *openai.Error
		if errors.As(err, &e) {
			return Answer{}, statusError(e.StatusCode, e.Message, e.Response)
		}
		return Answer{}, err
	}
	if len(resp.Choices) == 0 {
		return Answer{}, &apiError{transport: errNoChoice}
	}
	msg := resp.Choices[0].Message
	var a Answer
	if len(msg.ToolCalls) == 0 {
		a = noToolCall(msg.Content + msg.Refusal)
	} else {
		tc := msg.ToolCalls[0]
		for _, c := range msg.ToolCalls {
			if c.Function.Name == req.Tools[0].Name {
				tc = c
				break
			}
		}
		a = toolCall(tc.Function.Name, tc.Function.Arguments, req, nil)
	}
	a.InputTokens, a.OutputTokens = resp.Usage.PromptTokens, resp.Usage.CompletionTokens
	var extra struct {
		Usage struct {
			Cost float64 `json:"cost"`
		} `json:"usage"`
	}
	if raw := resp.RawJSON(); strings.Contains(raw, `"cost"`) && json.Unmarshal([]byte(raw), &extra) == nil {
		a.Cost = extra.Usage.Cost
	}
	return a, nil
}
