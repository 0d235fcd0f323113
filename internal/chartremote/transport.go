package chartremote

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync"
	"time"
)

// Helm's getters read a whole response into memory and take no context,
// so the bound on a download's size and the caller's cancellation are
// enforced below them, on the connections of the transport they are
// given: every byte read counts against the budget of the download under
// way, and cancelling closes every connection.

// errTooLarge is what a read past the budget returns.
var errTooLarge = errors.New("download exceeds its size limit")

type meter struct {
	mu       sync.Mutex
	left     int64
	exceeded bool
	conns    map[*meteredConn]struct{}
	closed   bool
}

// reset gives the next download its budget.
func (m *meter) reset(n int64) {
	m.mu.Lock()
	m.left, m.exceeded = n, false
	m.mu.Unlock()
}

func (m *meter) tooLarge() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.exceeded
}

// closeAll closes every connection and refuses new ones.
func (m *meter) closeAll() {
	m.mu.Lock()
	m.closed = true
	conns := m.conns
	m.conns = nil
	m.mu.Unlock()
	for c := range conns {
		_ = c.Conn.Close()
	}
}

type meteredConn struct {
	net.Conn
	m *meter
}

func (c *meteredConn) Read(b []byte) (int, error) {
	c.m.mu.Lock()
	left := c.m.left
	if left <= 0 {
		c.m.exceeded = true
		c.m.mu.Unlock()
		return 0, errTooLarge
	}
	c.m.mu.Unlock()
	if int64(len(b)) > left {
		b = b[:left]
	}
	n, err := c.Conn.Read(b)
	c.m.mu.Lock()
	c.m.left -= int64(n)
	c.m.mu.Unlock()
	return n, err
}

func (c *meteredConn) Close() error {
	c.m.mu.Lock()
	delete(c.m.conns, c)
	c.m.mu.Unlock()
	return c.Conn.Close()
}

// newTransport returns a transport for one Fetch, metered by m and
// closed when ctx ends.
func newTransport(ctx context.Context, m *meter) *http.Transport {
	d := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	return &http.Transport{
		Proxy: http.ProxyFromEnvironment,
		DialContext: func(dctx context.Context, network, addr string) (net.Conn, error) {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			c, err := d.DialContext(dctx, network, addr)
			if err != nil {
				return nil, err
			}
			mc := &meteredConn{Conn: c, m: m}
			m.mu.Lock()
			if m.closed {
				m.mu.Unlock()
				_ = c.Close()
				if err := context.Cause(ctx); err != nil {
					return nil, err
				}
				return nil, net.ErrClosed
			}
			if m.conns == nil {
				m.conns = map[*meteredConn]struct{}{}
			}
			m.conns[mc] = struct{}{}
			m.mu.Unlock()
			return mc, nil
		},
		ForceAttemptHTTP2:     true,
		TLSHandshakeTimeout:   30 * time.Second,
		ResponseHeaderTimeout: 60 * time.Second,
		IdleConnTimeout:       30 * time.Second,
		// As Helm's getters: the bytes counted are the bytes stored.
		DisableCompression: true,
	}
}
