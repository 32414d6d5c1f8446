package builtin

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"syscall"
	"time"
)

// LookupFunc resolves a host name to its addresses (web_fetch's resolver).
type LookupFunc func(ctx context.Context, host string) ([]netip.Addr, error)

// DialFunc connects to a network address, "ip:port" (web_fetch's dialer).
type DialFunc func(ctx context.Context, network, address string) (net.Conn, error)

// blockedAddrError says web_fetch refused to connect to a host because it
// is (or resolves to) an address that is not on the public internet.
type blockedAddrError struct {
	// host is the host as the URL names it.
	host string
	// addr is the address refused; invalid when the name alone was refused.
	addr netip.Addr
	// reason says what kind of address it is: "a loopback address".
	reason string
}

func (e *blockedAddrError) Error() string {
	if _, err := netip.ParseAddr(strings.Trim(e.host, "[]")); err == nil || !e.addr.IsValid() {
		return fmt.Sprintf("%s is %s", e.host, e.reason)
	}
	return fmt.Sprintf("%s resolves to %s, %s", e.host, e.addr, e.reason)
}

// addrReason returns why web_fetch must not connect to a (what kind of
// address it is), or "" when a is a public address.
func addrReason(a netip.Addr) string {
	a = a.Unmap()
	switch {
	case !a.IsValid():
		return "not a valid address"
	case a.IsUnspecified():
		return "an unspecified address"
	case a.IsLoopback():
		return "a loopback address"
	case a.Is6() && netip.MustParsePrefix("fc00::/7").Contains(a):
		return "a unique local address"
	case a.IsPrivate():
		return "a private network address"
	case a.IsLinkLocalUnicast(), a.IsLinkLocalMulticast():
		return "a link-local address"
	case a.IsMulticast(), a.IsInterfaceLocalMulticast():
		return "a multicast address"
	}
	if v4, ok := embeddedIPv4(a); ok {
		if r := addrReason(v4); r != "" {
			return r + " (it embeds " + v4.String() + ")"
		}
	}
	return reservedReason(a)
}

// reservedReason names the special-purpose ranges, beyond those netip
// classifies, that no public server uses.
func reservedReason(a netip.Addr) string {
	for _, r := range [...]struct{ prefix, reason string }{
		{"0.0.0.0/8", "a \"this network\" address"},
		{"100.64.0.0/10", "a shared (CGNAT) address"},
		{"192.0.0.0/24", "an IETF protocol address"},
		{"198.18.0.0/15", "a benchmarking address"},
		{"240.0.0.0/4", "a reserved address"},
		{"fec0::/10", "a site-local address"},
		{"100::/64", "a discard-only address"},
		{"64:ff9b:1::/48", "a local-use NAT64 address"},
	} {
		if netip.MustParsePrefix(r.prefix).Contains(a) {
			return r.reason
		}
	}
	return ""
}

// embeddedIPv4 returns the IPv4 address that an IPv6 address of a
// translation or tunnelling scheme (NAT64, 6to4, IPv4-compatible) carries.
func embeddedIPv4(a netip.Addr) (netip.Addr, bool) {
	if !a.Is6() {
		return netip.Addr{}, false
	}
	b := a.As16()
	switch {
	case netip.MustParsePrefix("64:ff9b::/96").Contains(a), netip.MustParsePrefix("::/96").Contains(a):
		return netip.AddrFrom4([4]byte(b[12:16])), true
	case netip.MustParsePrefix("2002::/16").Contains(a):
		return netip.AddrFrom4([4]byte(b[2:6])), true
	}
	return netip.Addr{}, false
}

// localName reports whether host names this machine without any lookup
// ("localhost" and names under it, RFC 6761).
func localName(host string) bool {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	return h == "localhost" || strings.HasSuffix(h, ".localhost")
}

// hostReason checks a URL's host before anything is resolved: an address
// literal or a name for this machine that is not public gets a reason.
func hostReason(host string) (netip.Addr, string) {
	if a, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		return a, addrReason(a)
	}
	if localName(host) {
		return netip.Addr{}, "a name for this machine"
	}
	return netip.Addr{}, ""
}

// fetchGuard dials for web_fetch's HTTP transport. It resolves each host
// itself, refuses the connection when any address is not public (unless
// allowPrivate), and dials the checked addresses directly, so a name cannot
// resolve to something else between check and connect (DNS rebinding).
// Every connection passes here, redirects included.
type fetchGuard struct {
	allowPrivate bool
	lookup       LookupFunc
	dial         DialFunc
}

// newFetchGuard builds the guard; nil lookup and dial take the system
// resolver and a net.Dialer that checks each socket address once more.
func newFetchGuard(allowPrivate bool, lookup LookupFunc, dial DialFunc) *fetchGuard {
	g := &fetchGuard{allowPrivate: allowPrivate, lookup: lookup, dial: dial}
	if g.lookup == nil {
		g.lookup = func(ctx context.Context, host string) ([]netip.Addr, error) {
			return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
		}
	}
	if g.dial == nil {
		d := &net.Dialer{Timeout: 15 * time.Second}
		if !allowPrivate {
			d.Control = checkSocketAddr
		}
		g.dial = d.DialContext
	}
	return g
}

// checkSocketAddr is a net.Dialer Control hook: the last check, on the
// address the socket is about to connect to.
func checkSocketAddr(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("web_fetch: unexpected socket address %q: %w", address, err)
	}
	if r := addrReason(ap.Addr()); r != "" {
		return &blockedAddrError{host: ap.Addr().String(), addr: ap.Addr(), reason: r}
	}
	return nil
}

// DialContext connects to address ("host:port") through checked addresses.
func (g *fetchGuard) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		return nil, fmt.Errorf("web_fetch: bad address %q: %w", address, err)
	}
	addrs, err := g.resolve(ctx, host)
	if err != nil {
		return nil, err
	}
	var firstErr error
	for _, a := range addrs {
		if (network == "tcp4" && !a.Is4()) || (network == "tcp6" && !a.Is6()) {
			continue
		}
		conn, err := g.dial(ctx, network, net.JoinHostPort(a.String(), port))
		if err == nil {
			return conn, nil
		}
		if firstErr == nil {
			firstErr = err
		}
		if ctx.Err() != nil {
			break
		}
	}
	if firstErr == nil {
		firstErr = fmt.Errorf("web_fetch: no %s address for %s", network, host)
	}
	return nil, firstErr
}

// resolve returns host's addresses. When any of them is not public the
// host is refused as a whole: a name that also points inside the network
// is not one to trust with a request.
func (g *fetchGuard) resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	if a, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{a.Unmap()}, g.check(host, a)
	}
	if !g.allowPrivate && localName(host) {
		return nil, &blockedAddrError{host: host, reason: "a name for this machine"}
	}
	addrs, err := g.lookup(ctx, host)
	if err != nil {
		return nil, fmt.Errorf("web_fetch: look up %s: %w", host, err)
	}
	if len(addrs) == 0 {
		return nil, fmt.Errorf("web_fetch: %s has no addresses", host)
	}
	out := make([]netip.Addr, 0, len(addrs))
	for _, a := range addrs {
		if err := g.check(host, a); err != nil {
			return nil, err
		}
		out = append(out, a.Unmap())
	}
	return out, nil
}

// check refuses a when it is not public, unless private addresses are
// allowed.
func (g *fetchGuard) check(host string, a netip.Addr) error {
	if g.allowPrivate {
		return nil
	}
	if r := addrReason(a); r != "" {
		return &blockedAddrError{host: host, addr: a.Unmap(), reason: r}
	}
	return nil
}

// asBlocked finds a blockedAddrError in err's chain.
func asBlocked(err error) (*blockedAddrError, bool) {
	var b *blockedAddrError
	ok := errors.As(err, &b)
	return b, ok
}
