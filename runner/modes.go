package runner

import "github.com/b0a38808/retry/internal/stdio"

// StdinMode says what each attempt reads as its standard input
// (Config.StdinMode).
type StdinMode = stdio.StdinMode

// The stdin modes: the same bytes for every attempt, retry's own stdin
// handed on, or the null device.
const (
	StdinReplay  = stdio.StdinReplay
	StdinInherit = stdio.StdinInherit
	StdinNull    = stdio.StdinNull
)

// OutputMode says where each attempt's standard output or standard error
// goes (Config.StdoutMode, Config.StderrMode).
type OutputMode = stdio.OutputMode

// The output modes: every attempt's output as it is written, or only the
// last attempt's, held until no other attempt will start.
const (
	OutputStream = stdio.OutputStream
	OutputFinal  = stdio.OutputFinal
)
