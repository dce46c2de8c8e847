package model

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"
)

// Key identifies one model answer: the same key gives the same answer
// from the cache, offline.
type Key struct {
	API         string   `json:"api"`
	Model       string   `json:"model"`
	Temperature *float64 `json:"temperature,omitempty"`
	// Client is the profile ("claude@2.1.328") and Surface the hash of
	// what that client showed the model apart from the prompt.
	Client  string `json:"client"`
	Surface string `json:"surface"`
	Prompt  string `json:"prompt"`
	Sample  int    `json:"sample"`
}

func (k Key) id() string {
	t := "-"
	if k.Temperature != nil {
		t = strconv.FormatFloat(*k.Temperature, 'g', -1, 64)
	}
	b, _ := json.Marshal([]any{k.API, k.Model, t, k.Client, k.Surface, k.Prompt, k.Sample})
	return string(b)
}

// Entry is one line of the cache file: the key's members, then the
// answer's.
type Entry struct {
	Key
	Answer
}

// Cache is a JSON Lines file of answers, appended to as they arrive. It
// is safe for concurrent use.
type Cache struct {
	path string
	mu   sync.Mutex
	m    map[string]Entry
	f    *os.File
	// Skipped counts the lines of the file that could not be read (a line
	// cut by an interrupted write, a line of another program).
	Skipped int
}

// DefaultCachePath is the cache's default file: toolfind/model-cache.jsonl
// in the user's cache folder.
func DefaultCachePath() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no user cache folder (give --cache FILE): %w", err)
	}
	return filepath.Join(dir, "toolfind", "model-cache.jsonl"), nil
}

// OpenCache reads the cache file at path (absent: empty) and opens it for
// appending, creating its folder.
func OpenCache(path string) (*Cache, error) {
	c := &Cache{path: path, m: map[string]Entry{}}
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, fmt.Errorf("model cache: %w", err)
	default:
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(make([]byte, 64<<10), 64<<20)
		for sc.Scan() {
			line := bytes.TrimSpace(sc.Bytes())
			if len(line) == 0 {
				continue
			}
			var e Entry
			if json.Unmarshal(line, &e) != nil || e.API == "" || e.Model == "" {
				c.Skipped++
				continue
			}
			if string(e.Call) == "null" {
				// A no-call: json.RawMessage keeps a JSON null as "null".
				e.Call = nil
			}
			c.m[e.Key.id()] = e
		}
		if sc.Err() != nil {
			c.Skipped++
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("model cache: %w", err)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("model cache: %w", err)
	}
	// A line cut by an interrupted write would swallow the next one.
	if len(b) > 0 && b[len(b)-1] != '\n' {
		if _, err := f.Write([]byte("\n")); err != nil {
			f.Close()
			return nil, fmt.Errorf("model cache: %w", err)
		}
	}
	c.f = f
	return c, nil
}

// Path is the cache's file.
func (c *Cache) Path() string { return c.path }

// Len is the number of answers held.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

// Get returns the answer stored for k.
func (c *Cache) Get(k Key) (Entry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[k.id()]
	return e, ok
}

// Put stores an answer and appends it to the file at once.
func (c *Cache) Put(k Key, a Answer) error {
	e := Entry{Key: k, Answer: a}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(e); err != nil {
		return fmt.Errorf("model cache: %w", err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[k.id()] = e
	if c.f == nil {
		return nil
	}
	if _, err := c.f.Write(b.Bytes()); err != nil {
		return fmt.Errorf("model cache %s: %w", c.path, err)
	}
	return nil
}

// Close closes the file.
func (c *Cache) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.f == nil {
		return nil
	}
	err := c.f.Close()
	c.f = nil
	return err
}
