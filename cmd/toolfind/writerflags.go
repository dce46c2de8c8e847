package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/writer"
	"github.com/toolfind/toolfind/writer/model"
	"github.com/toolfind/toolfind/writer/model/sdk"
)

// writerFlags are the flags of the writers that ask a model (package
// writer/model, through the OpenAI and Anthropic SDKs: writer/model/sdk)
// or a program (writer.Command), shared by write and bench.
type writerFlags struct {
	modelAPI       string
	modelURL       string
	model          string
	concurrency    int
	temperature    float64
	samples        int
	cache          string
	noCache        bool
	command        string
	commandTimeout time.Duration
	surfaceFile    string
	flags          *pflag.FlagSet
	// phase is the model writer's progress bar (answers so far).
	phase *phase
}

func addWriterFlags(f *pflag.FlagSet) *writerFlags {
	o := &writerFlags{flags: f}
	f.StringVar(&o.modelAPI, "model-api", "openai", "with --writer model: the API, openai (Chat Completions: OpenAI, Ollama, vLLM, llama.cpp, LM Studio) or anthropic (Messages); the key is read from OPENAI_API_KEY or ANTHROPIC_API_KEY")
	f.StringVar(&o.modelURL, "model-url", "", "with --writer model: the API's base `URL` (e.g. http://127.0.0.1:11434/v1); default the vendor's")
	f.StringVar(&o.model, "model", "", "with --writer model: the model's `NAME`")
	f.IntVar(&o.concurrency, "model-concurrency", 4, "with --writer model or command: requests (or runs) at once")
	f.Float64Var(&o.temperature, "temperature", 0, "with --writer model: the sampling temperature (default: the API's)")
	f.IntVar(&o.samples, "samples", 1, "with --writer model or command: ask `N` times per prompt (ids get #1…#N, tag sample) to measure the model's own variance")
	f.StringVar(&o.cache, "cache", "", "with --writer model: the answer cache `FILE` (JSON Lines; default toolfind/model-cache.jsonl in the user cache folder)")
	f.BoolVar(&o.noCache, "no-cache", false, "with --writer model: neither read nor write the answer cache")
	f.StringVar(&o.command, "writer-command", "", "with --writer command: the `CMD` run (by sh -c) per prompt, {\"id\",\"client\",\"surface\",\"prompt\"} on its standard input, the call as JSON on its standard output")
	f.DurationVar(&o.commandTimeout, "command-timeout", 60*time.Second, "with --writer command: the time one run may take")
	f.StringVar(&o.surfaceFile, "surface-file", "", "with --writer model or command: a JSON `FILE` {\"claude\": {\"tool_search_description\": \"...\"}, ...} of exact client texts to show the model")
	return o
}

// writerHelp is the usage of --writer in bench, check and suggest.
const writerHelp = "who writes each client's search call from the prompt: heuristic (a prediction of the model's call), verbatim (the prompt itself: a baseline), model or command; a comma-separated list gives one row per writer and client (heuristic,verbatim)"

// writerNames reads --writer: one writer name or a comma-separated list,
// each named once.
func writerNames(spec string) ([]string, error) {
	var names []string
	seen := map[string]bool{}
	for _, n := range strings.Split(spec, ",") {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		if seen[n] {
			return nil, usageError("--writer %q: %s is named twice", spec, n)
		}
		seen[n] = true
		names = append(names, n)
	}
	if len(names) == 0 {
		return nil, usageError("--writer %q: name a writer: heuristic, verbatim, model or command", spec)
	}
	return names, nil
}

// check rejects flags that do not go with the writers.
func (o *writerFlags) check(names ...string) error {
	has := func(n string) bool { return slices.Contains(names, n) }
	modelOnly := []string{"model-api", "model-url", "model", "temperature", "cache", "no-cache"}
	both := []string{"model-concurrency", "samples", "surface-file"}
	cmdOnly := []string{"writer-command", "command-timeout"}
	for _, g := range []struct {
		flags []string
		want  string
		ok    bool
	}{
		{modelOnly, "model", has("model")},
		{cmdOnly, "command", has("command")},
		{both, "model or --writer command", has("model") || has("command")},
	} {
		if g.ok {
			continue
		}
		for _, f := range g.flags {
			if o.flags.Changed(f) {
				return usageError("--%s goes with --writer %s", f, g.want)
			}
		}
	}
	if o.samples < 1 {
		return usageError("--samples %d: must be 1 or more", o.samples)
	}
	if o.concurrency < 1 {
		return usageError("--model-concurrency %d: must be 1 or more", o.concurrency)
	}
	return nil
}

// writerFromFlags returns the writer --writer names: a built-in
// (writer.ByName), model or command. done ends it: it closes the model's
// cache and prints the model's totals on standard error (unless --quiet).
// The caller has checked the flags against every writer of the run
// (check).
func (o *writerFlags) writerFromFlags(name string, g *globalOptions, errOut io.Writer) (w writer.Writer, done func(), err error) {
	switch name {
	case "model":
		return o.modelWriter(g, errOut)
	case "command":
		if strings.TrimSpace(o.command) == "" {
			return nil, nil, usageError("--writer command needs --writer-command CMD")
		}
		if o.commandTimeout <= 0 {
			return nil, nil, usageError("--command-timeout %s: must be more than 0", o.commandTimeout)
		}
		texts, err := loadSurfaceTexts(o.surfaceFile)
		if err != nil {
			return nil, nil, err
		}
		workers := 1
		if o.flags.Changed("model-concurrency") {
			workers = o.concurrency
		}
		return &writer.Command{Argv: []string{"sh", "-c", o.command}, Timeout: o.commandTimeout, Texts: texts, Workers: workers}, func() {}, nil
	}
	w, err = writer.ByName(name)
	if err != nil {
		return nil, nil, usageError("--writer: %v (or model, command)", err)
	}
	return w, func() {}, nil
}

func (o *writerFlags) modelWriter(g *globalOptions, errOut io.Writer) (writer.Writer, func(), error) {
	if o.modelAPI != model.OpenAI && o.modelAPI != model.Anthropic {
		return nil, nil, usageError("--model-api %q: want openai or anthropic", o.modelAPI)
	}
	if strings.TrimSpace(o.model) == "" {
		return nil, nil, usageError("--writer model needs --model NAME")
	}
	key := os.Getenv(model.KeyVar(o.modelAPI))
	if key == "" && o.modelURL == "" {
		return nil, nil, usageError("--writer model: set %s (or give --model-url for a local server that needs no key)", model.KeyVar(o.modelAPI))
	}
	texts, err := loadSurfaceTexts(o.surfaceFile)
	if err != nil {
		return nil, nil, err
	}
	cfg := model.Config{API: o.modelAPI, BaseURL: o.modelURL, Model: o.model, Key: key,
		Concurrency: o.concurrency, Texts: texts}
	if o.flags.Changed("temperature") {
		t := o.temperature
		cfg.Temperature = &t
	}
	var cache *model.Cache
	if !o.noCache {
		path := o.cache
		if path == "" {
			if path, err = model.DefaultCachePath(); err != nil {
				return nil, nil, usageError("--cache: %v", err)
			}
		}
		if cache, err = model.OpenCache(path); err != nil {
			return nil, nil, badInput(err)
		}
		if cache.Skipped > 0 && !g.quiet {
			fmt.Fprintf(errOut, "warning: %s: %d unreadable %s skipped\n", path, cache.Skipped, plural(cache.Skipped, "line", "lines"))
		}
		cfg.Cache = cache
	}
	ph := g.run().begin("model", 0, false)
	o.phase = ph
	var mu sync.Mutex
	cfg.Progress = func(s model.Stats) {
		mu.Lock()
		defer mu.Unlock()
		ph.set(int64(s.Calls + s.NoCall))
	}
	mw, err := sdk.New(cfg)
	if err != nil {
		if cache != nil {
			cache.Close()
		}
		return nil, nil, usageError("%v", err)
	}
	done := func() {
		s := mw.Stats()
		ph.end("")
		if cache != nil {
			cache.Close()
		}
		if g.quiet {
			return
		}
		fmt.Fprintf(errOut, "model %s (%s): %s\n", o.model, o.modelAPI, modelSummary(s))
	}
	return mw, done, nil
}

// modelSummary says what the model writer did: answers, where they came
// from, what failed to be a call, and the tokens (and cost) paid.
func modelSummary(s model.Stats) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%d cached, %s sent", count(s.Calls+s.NoCall, "answer", "answers"), s.Cached, count(s.Requests, "request", "requests"))
	if s.Retries > 0 {
		fmt.Fprintf(&b, ", %d retried", s.Retries)
	}
	b.WriteString(")")
	if s.NoCall > 0 {
		fmt.Fprintf(&b, ", %d without a search call (tag no_call)", s.NoCall)
	}
	fmt.Fprintf(&b, "; %d input + %d output tokens", s.InputTokens, s.OutputTokens)
	if s.Cost > 0 {
		fmt.Fprintf(&b, ", cost %.4f", s.Cost)
	}
	return b.String()
}

// setTotal tells the model writer's progress bar how many answers the
// run needs.
func (o *writerFlags) setTotal(n int) {
	if o.phase != nil {
		o.phase.mu.Lock()
		o.phase.total = int64(n)
		o.phase.mu.Unlock()
	}
}

// expand applies --samples to a query set.
func (o *writerFlags) expand(qs *corpus.QuerySet) (*corpus.QuerySet, error) {
	out, err := writer.ExpandSamples(qs, o.samples)
	if err != nil {
		return nil, badInput(err)
	}
	return out, nil
}

// workers is the bench workers a writer needs: enough for its own
// concurrency.
func writerWorkers(w writer.Writer, workers int) int {
	if c, ok := w.(writer.Concurrent); ok && workers == 0 {
		return max(runtime.GOMAXPROCS(0), c.Concurrency())
	}
	return workers
}

// checkQueryOnly refuses a client option of how a query text is searched
// (search.Option.QueryOnly, such as --codex-script) in a run where no
// client searches a query text: every call is written (by says by whom,
// "by the heuristic writer"), so the option would do nothing. queryText
// says whether some row's search is the query text (--writer verbatim).
func (g *globalOptions) checkQueryOnly(queryText bool, by string) error {
	if queryText {
		return nil
	}
	for _, p := range clientProfiles() {
		for _, o := range p.Options {
			if flag := clientFlag(p.ID.Name, o); o.QueryOnly && g.flags.Changed(flag) {
				return usageError("--%s sets how %s searches the query text, but here every call is written %s, so it would change nothing; to run it, add --writer verbatim (the query text is the search)",
					flag, p.ID.Name, by)
			}
		}
	}
	return nil
}
