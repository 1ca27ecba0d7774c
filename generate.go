package main

// `go generate` rewrites every generated file under docs/: the man pages
// and CLI reference, from the command tree, and the jitter simulation's
// tables and chart. Tests fail when the committed files are out of date.

//go:generate go run ./docs/gen
//go:generate go run ./bench/jittersim -docs docs
