package sdk

import (
	"context"
	"errors"
	"strings"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/toolfind/toolfind/writer/model"
)

// anthropicAPI speaks Messages through the official SDK.
type anthropicAPI struct {
	client anthropic.Client
	cfg    model.Config
}

func newAnthropic(cfg model.Config, s settings) *anthropicAPI {
	// No environment defaults: the key comes only from cfg.Key (the
	// caller's ANTHROPIC_API_KEY), never from other variables or files.
	opts := []option.RequestOption{option.WithoutEnvironmentDefaults(), option.WithMaxRetries(0), option.WithAPIKey(cfg.Key)}
	if cfg.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(cfg.BaseURL))
	}
	if s.httpClient != nil {
		opts = append(opts, option.WithHTTPClient(s.httpClient))
	}
	return &anthropicAPI{client: anthropic.NewClient(opts...), cfg: cfg}
}

// params renders the request (package doc, "What is sent").
func (c *anthropicAPI) params(req model.Request, prompt string) (anthropic.MessageNewParams, []option.RequestOption) {
	maxTokens := c.cfg.MaxTokens
	if maxTokens <= 0 {
		maxTokens = model.DefaultMaxTokens
	}
	p := anthropic.MessageNewParams{Model: anthropic.Model(c.cfg.Model), MaxTokens: int64(maxTokens)}
	if req.System != "" {
		p.System = []anthropic.TextBlockParam{{Text: req.System}}
	}
	var blocks []anthropic.ContentBlockParamUnion
	for _, t := range append(append([]string(nil), req.Parts...), prompt) {
		blocks = append(blocks, anthropic.NewTextBlock(t))
	}
	p.Messages = []anthropic.MessageParam{anthropic.NewUserMessage(blocks...)}
	for _, t := range req.Tools {
		schema := model.SchemaObject(t)
		in := anthropic.ToolInputSchemaParam{ExtraFields: map[string]any{}}
		for k, v := range schema {
			switch k {
			case "type":
			case "properties":
				in.Properties = v
			case "required":
				for _, r := range asStrings(v) {
					in.Required = append(in.Required, r)
				}
			default:
				in.ExtraFields[k] = v
			}
		}
		p.Tools = append(p.Tools, anthropic.ToolUnionParam{OfTool: &anthropic.ToolParam{
			Name: t.Name, Description: anthropic.String(t.Description), InputSchema: in}})
	}
	p.ToolChoice = anthropic.ToolChoiceUnionParam{OfTool: &anthropic.ToolChoiceToolParam{Name: req.Tools[0].Name}}
	var opts []option.RequestOption
	if c.cfg.Temperature != nil {
		// This SDK release has no temperature field; the API takes one.
		opts = append(opts, option.WithJSONSet("temperature", *c.cfg.Temperature))
	}
	return p, opts
}

func asStrings(v any) []string {
	l, _ := v.([]any)
	var out []string
	for _, x := range l {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// Ask implements model.Backend.
func (c *anthropicAPI) Ask(ctx context.Context, req model.Request, prompt string) (model.Answer, error) {
	p, opts := c.params(req, prompt)
	msg, err := c.client.Messages.New(ctx, p, opts...)
	if err != nil {
		var e *anthropic.Error
		if errors.As(err, &e) {
			return model.Answer{}, model.StatusError(e.StatusCode, e.Message, retryAfter(e.Response))
		}
		return model.Answer{}, tooBig(err)
	}
	var a model.Answer
	var text strings.Builder
	found := false
	for _, b := range msg.Content {
		switch b.Type {
		case "tool_use":
			if !found || b.Name == req.Tools[0].Name && a.Call == nil {
				a = model.ToolCall(b.Name, string(b.Input), req)
				found = true
			}
		case "text":
			text.WriteString(b.Text)
		}
	}
	if !found {
		a = model.NoToolCall(text.String())
	}
	a.InputTokens, a.OutputTokens = msg.Usage.InputTokens, msg.Usage.OutputTokens
	return a, nil
}
