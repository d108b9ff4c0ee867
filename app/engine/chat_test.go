package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"tinyrag/app/llm"
)

// step is one thing a scripted reply does on Recv.
type step struct {
	content   string
	reasoning string
	usage     *llm.Usage
	wait      <-chan struct{} // block until closed (or the stream is closed / ctx done)
	err       error           // end the stream with this error
}

// scriptedChat is an llm.Chatter whose replies are written out in advance,
// one list of steps per round. It records every request it gets.
type scriptedChat struct {
	mu      sync.Mutex
	rounds  [][]step
	reqs    []llm.Request
	closed  int
	openErr error
}

func (s *scriptedChat) ChatStream(ctx context.Context, req llm.Request) (llm.Stream, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.openErr != nil {
		return nil, s.openErr
	}
	n := len(s.reqs)
	s.reqs = append(s.reqs, req)
	if n >= len(s.rounds) {
		return nil, fmt.Errorf("scripted chat: no reply scripted for round %d", n)
	}
	return &scriptedStream{ctx: ctx, steps: s.rounds[n], chat: s, done: make(chan struct{})}, nil
}

func (s *scriptedChat) requests() []llm.Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]llm.Request(nil), s.reqs...)
}

type scriptedStream struct {
	ctx   context.Context
	steps []step
	i     int
	chat  *scriptedChat
	once  sync.Once
	done  chan struct{}
}

func (st *scriptedStream) Recv() (llm.Delta, error) {
	for st.i < len(st.steps) {
		s := st.steps[st.i]
		st.i++
		if s.wait != nil {
			select {
			case <-s.wait:
			case <-st.done:
				return llm.Delta{}, errors.New("scripted stream closed")
			case <-st.ctx.Done():
				return llm.Delta{}, st.ctx.Err()
			}
		}
		if s.err != nil {
			st.i = len(st.steps)
			return llm.Delta{}, s.err
		}
		if s.content != "" || s.reasoning != "" || s.usage != nil {
			return llm.Delta{Content: s.content, Reasoning: s.reasoning, Usage: s.usage}, nil
		}
	}
	return llm.Delta{}, io.EOF
}

func (st *scriptedStream) Close() error {
	st.once.Do(func() {
		close(st.done)
		st.chat.mu.Lock()
		st.chat.closed++
		st.chat.mu.Unlock()
	})
	return nil
}

// text turns whole strings into content steps.
func text(parts ...string) []step {
	out := make([]step, len(parts))
	for i, p := range parts {
		out[i] = step{content: p}
	}
	return out
}

// chunked cuts s into content steps of n bytes: the engine must not care.
func chunked(s string, n int) []step {
	var out []step
	for len(s) > n {
		out = append(out, step{content: s[:n]})
		s = s[n:]
	}
	return append(out, step{content: s})
}
