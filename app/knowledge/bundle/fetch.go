package bundle

import (
	"context"
	"fmt"
	"sync"
)

// Fetching a bundle's files: checked against their names, one fetch
// shared by the callers asking for a file at once.

// file fetches one of the bundle's files and checks it against its name
// (verify). Requests for one file at once share one fetch.
func (ix *Index) file(ctx context.Context, name string) ([]byte, error) {
	return ix.files.do(name, func() ([]byte, error) {
		data, err := ix.fetch(ctx, ix.base+name)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if err := verify(name, data); err != nil {
			return nil, err
		}
		return data, nil
	})
}

// decoded returns m[name], or fetches the file, decodes it and keeps it
// in m (a map of ix's, read and written under ix.mu): the term map's
// pages and the lexicon's shards, read again by every query that needs
// them.
func decoded[T any](ctx context.Context, ix *Index, m map[string]T, name string, decode func([]byte) (T, error)) (T, error) {
	ix.mu.RLock()
	v, ok := m[name]
	ix.mu.RUnlock()
	if ok {
		return v, nil
	}
	data, err := ix.file(ctx, name)
	if err != nil {
		return v, err
	}
	if v, err = decode(data); err != nil {
		return v, fmt.Errorf("%s: %w", name, err)
	}
	ix.mu.Lock()
	m[name] = v
	ix.mu.Unlock()
	return v, nil
}

// parallel runs fn(0) … fn(n-1) at once and returns the first error.
func parallel(n int, fn func(k int) error) error {
	if n == 1 {
		return fn(0)
	}
	errs := make([]error, n)
	var wg sync.WaitGroup
	for k := 0; k < n; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[k] = fn(k)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// flight shares one fetch among the callers asking for one file at once.
type flight struct {
	mu    sync.Mutex
	calls map[string]*call
}

type call struct {
	done chan struct{}
	data []byte
	err  error
}

// busy reports whether key is being fetched.
func (f *flight) busy(key string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	_, ok := f.calls[key]
	return ok
}

func (f *flight) do(key string, fn func() ([]byte, error)) ([]byte, error) {
	f.mu.Lock()
	if f.calls == nil {
		f.calls = map[string]*call{}
	}
	if c, ok := f.calls[key]; ok {
		f.mu.Unlock()
		<-c.done
		return c.data, c.err
	}
	c := &call{done: make(chan struct{})}
	f.calls[key] = c
	f.mu.Unlock()
	c.data, c.err = fn()
	close(c.done)
	f.mu.Lock()
	delete(f.calls, key)
	f.mu.Unlock()
	return c.data, c.err
}
