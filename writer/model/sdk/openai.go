package sdk

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"

	"github.com/toolfind/toolfind/writer/model"
)

// openaiAPI speaks Chat Completions through the official SDK.
type openaiAPI struct {
	client openai.Client
	cfg    model.Config
}

func newOpenAI(cfg model.Config, s settings) *openaiAPI {
	opts := []option.RequestOption{option.WithMaxRetries(0), option.WithAPIKey(cfg.Key)}
	if cfg.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(cfg.BaseURL))
	}
	if s.httpClient != nil {
		opts = append(opts, option.WithHTTPClient(s.httpClient))
	}
	return &openaiAPI{client: openai.NewClient(opts...), cfg: cfg}
}

// params renders the request (package doc, "What is sent").
func (o *openaiAPI) params(req model.Request, prompt string) openai.ChatCompletionNewParams {
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
			Parameters:  shared.FunctionParameters(model.SchemaObject(t)),
		}))
	}
	p.ToolChoice = openai.ToolChoiceOptionFunctionToolChoice(openai.ChatCompletionNamedToolChoiceFunctionParam{Name: req.Tools[0].Name})
	if o.cfg.Temperature != nil {
		p.Temperature = openai.Float(*o.cfg.Temperature)
	}
	return p
}

// Ask implements model.Backend.
func (o *openaiAPI) Ask(ctx context.Context, req model.Request, prompt string) (model.Answer, error) {
	resp, err := o.client.Chat.Completions.New(ctx, o.params(req, prompt))
	if err != nil {
		var e *openai.Error
		if errors.As(err, &e) {
			return model.Answer{}, model.StatusError(e.StatusCode, e.Message, retryAfter(e.Response))
		}
		return model.Answer{}, tooBig(err)
	}
	if len(resp.Choices) == 0 {
		return model.Answer{}, &model.APIError{Transport: errNoChoice}
	}
	msg := resp.Choices[0].Message
	var a model.Answer
	if len(msg.ToolCalls) == 0 {
		a = model.NoToolCall(msg.Content + msg.Refusal)
	} else {
		tc := msg.ToolCalls[0]
		for _, c := range msg.ToolCalls {
			if c.Function.Name == req.Tools[0].Name {
				tc = c
				break
			}
		}
		a = model.ToolCall(tc.Function.Name, tc.Function.Arguments, req)
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

var errNoChoice = errors.New("the answer has no choices")
