package cmd

import (
	"fmt"
	"io"
	"runtime"
	"sync"
	"time"

	"github.com/mattn/go-isatty"
)

// terminal is what retry may do on its stderr besides writing plain lines.
type terminal struct {
	// colour: SGR colour codes.
	colour bool
	// live: rewrite a line in place (the wait counting down); only on a
	// real terminal that understands cursor movement.
	live bool
	// tty: a terminal, dumb or not; no CI marker is written to one.
	tty bool
}

// isTerminal reports whether f is a terminal, a Cygwin or MSYS one
// included: the one place retry asks.
func isTerminal(f interface{ Fd() uintptr }) bool {
	fd := f.Fd()
	return isatty.IsTerminal(fd) || isatty.IsCygwinTerminal(fd)
}

// probeTerminal looks at w and the environment. Colour follows
// FORCE_COLOR (any value but "0" or "false" turns it on, even when w is
// not a terminal), then NO_COLOR (any value turns it off) and TERM=dumb,
// then whether w is a terminal. Without FORCE_COLOR, nothing but plain
// text is ever written to something that is not a terminal.
func probeTerminal(w io.Writer, getenv func(string) string) terminal {
	tty := false
	if f, ok := w.(interface{ Fd() uintptr }); ok && runtime.GOOS != "windows" {
		// Windows consoles need virtual terminal processing switched on
		// to understand escape codes; retry stays plain there.
		tty = isTerminal(f)
	}
	dumb := getenv("TERM") == "dumb"
	t := terminal{live: tty && !dumb, tty: tty}
	switch force := getenv("FORCE_COLOR"); {
	case force != "":
		t.colour = force != "0" && force != "false"
	case getenv("NO_COLOR") != "" || dumb:
		t.colour = false
	default:
		t.colour = tty
	}
	return t
}

// SGR colours, used only when terminal.colour holds.
const (
	red    = "31"
	green  = "32"
	yellow = "33"
	bold   = "1"
)

// paint wraps s in the SGR code when colour is on.
func (t terminal) paint(code, s string) string {
	if !t.colour {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

// countdown shows, on a line of its own under the last progress line, the
// wait before the next attempt counting down in place. Stop erases it, so
// that what stays on the screen is what a log would hold.
type countdown struct {
	stop chan struct{}
	done chan struct{}
}

// countdownTick is how often the countdown is redrawn.
const countdownTick = 100 * time.Millisecond

// startCountdown draws the countdown of a wait of d on w, under mu.
func startCountdown(w io.Writer, mu *sync.Mutex, t terminal, d time.Duration) *countdown {
	c := &countdown{stop: make(chan struct{}), done: make(chan struct{})}
	end := time.Now().Add(d)
	draw := func() {
		left := max(time.Until(end), 0)
		mu.Lock()
		fmt.Fprintf(w, "\r%s next attempt in %s\x1b[K", t.paint(bold, "retry:"), tenths(left))
		mu.Unlock()
	}
	draw()
	go func() {
		defer close(c.done)
		tick := time.NewTicker(countdownTick)
		defer tick.Stop()
		for {
			select {
			case <-c.stop:
				mu.Lock()
				fmt.Fprint(w, "\r\x1b[K")
				mu.Unlock()
				return
			case <-tick.C:
				draw()
			}
		}
	}()
	return c
}

// Stop erases the countdown and waits until it is gone. It may be called
// on a nil countdown.
func (c *countdown) Stop() {
	if c == nil {
		return
	}
	close(c.stop)
	<-c.done
}

// tenths renders a countdown: "4.2s", or "2m3s" from a minute on.
func tenths(d time.Duration) string {
	if d >= time.Minute {
		return d.Round(time.Second).String()
	}
	return fmt.Sprintf("%.1fs", d.Seconds())
}
