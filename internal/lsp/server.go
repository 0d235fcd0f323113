// Package lsp is `celyaml lsp`: a Language Server Protocol server that
// shows, as the user types, what `celyaml check` finds, and completes,
// describes and finds the definitions of the names a template binds
// (the CLI guide, "Language server"). It speaks JSON-RPC through
// github.com/sourcegraph/jsonrpc2 and the protocol types and dispatch of
// github.com/tliron/glsp.
package lsp

import (
	"context"
	"fmt"
	"io"
	"sync"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
)

// Options configure a Server.
type Options struct {
	// Engine are the engine's options; its Loader is wrapped so that the
	// editor's open buffers stand in for their files on disk.
	Engine engine.Options
	// After, when not nil, takes the documents a template renders to (when
	// check renders it) and the template's text, and may find more, as
	// `celyaml check` does with the command line's encoder.
	After func(docs []engine.Document, text []byte) error
	// Version is the server's version, sent in the initialize result.
	Version string
}

// Server is one language server. Serve it on one connection.
type Server struct {
	opts    Options
	eng     *engine.Engine
	docs    *store
	handler protocol.Handler
	// mu is held by each request while it runs and by the diagnostics
	// loop while it reads the documents, not while it checks them: a long
	// check does not hold up completion or hover.
	mu sync.Mutex
	// pending are the URIs whose diagnostics are due, in order; work
	// wakes the diagnostics loop.
	pendMu  sync.Mutex
	pending []string
	work    chan struct{}
}

// New returns a Server.
func New(opts Options) *Server {
	s := &Server{opts: opts, docs: newStore(), work: make(chan struct{}, 1)}
	base := opts.Engine.Loader
	if base == nil {
		base = engine.OSLoader{}
	}
	eo := opts.Engine
	eo.Loader = overlayLoader{docs: s.docs, base: base}
	s.eng = engine.New(eo)
	s.handler = protocol.Handler{
		Initialize:             s.initialize,
		Initialized:            func(*glsp.Context, *protocol.InitializedParams) error { return nil },
		Shutdown:               func(*glsp.Context) error { return nil },
		Exit:                   func(*glsp.Context) error { return nil },
		SetTrace:               func(*glsp.Context, *protocol.SetTraceParams) error { return nil },
		TextDocumentDidOpen:    s.didOpen,
		TextDocumentDidChange:  s.didChange,
		TextDocumentDidClose:   s.didClose,
		TextDocumentDidSave:    func(*glsp.Context, *protocol.DidSaveTextDocumentParams) error { return nil },
		TextDocumentCompletion: s.completion,
		TextDocumentHover:      s.hover,
		TextDocumentDefinition: s.definition,
	}
	return s
}

// Serve answers the client on rwc until the client exits, the stream
// ends or ctx is done.
func (s *Server) Serve(ctx context.Context, rwc io.ReadWriteCloser) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	conn := jsonrpc2.NewConn(ctx, jsonrpc2.NewBufferedStream(rwc, jsonrpc2.VSCodeObjectCodec{}), jsonrpc2.HandlerWithError(s.handle))
	go s.publishLoop(ctx, conn)
	select {
	case <-conn.DisconnectNotify():
	case <-ctx.Done():
		_ = conn.Close()
	}
	return nil
}

func (s *Server) initialize(_ *glsp.Context, _ *protocol.InitializeParams) (any, error) {
	version := s.opts.Version
	info := &protocol.InitializeResultServerInfo{Name: "celyaml"}
	if version != "" {
		info.Version = &version
	}
	openClose := true
	return protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			TextDocumentSync: protocol.TextDocumentSyncOptions{OpenClose: &openClose, Change: ptr(protocol.TextDocumentSyncKindFull)},
			CompletionProvider: &protocol.CompletionOptions{
				TriggerCharacters: []string{"$", "."},
			},
			HoverProvider:      true,
			DefinitionProvider: true,
		},
		ServerInfo: info,
	}, nil
}

// handle dispatches one request or notification through glsp's protocol
// handler, as glsp's own server does, and turns a panic into an error
// reply: a bug in one request does not end the session. The panic's
// value is not sent (it could hold a template's text).
func (s *Server) handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (result any, err error) {
	defer func() {
		if r := recover(); r != nil {
			result, err = nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError,
				Message: fmt.Sprintf("celyaml lsp: internal error while answering %s; the server goes on", req.Method)}
		}
	}()
	s.mu.Lock()
	defer s.mu.Unlock()
	gctx := &glsp.Context{
		Method: req.Method,
		Notify: func(method string, params any) { _ = conn.Notify(ctx, method, params) },
		Call:   func(method string, params, result any) { _ = conn.Call(ctx, method, params, result) },
	}
	if req.Params != nil {
		gctx.Params = *req.Params
	}
	if req.Method == "exit" {
		_, _, _, _ = s.handler.Handle(gctx)
		return nil, conn.Close()
	}
	r, validMethod, validParams, err := s.handler.Handle(gctx)
	switch {
	case !validMethod:
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "method not supported: " + req.Method}
	case !validParams:
		msg := "invalid params"
		if err != nil {
			msg = err.Error()
		}
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: msg}
	case err != nil:
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidRequest, Message: err.Error()}
	}
	return r, nil
}

func ptr[T any](v T) *T { return &v }
