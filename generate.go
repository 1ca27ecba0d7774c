package main

// `go generate` rewrites every generated file: under docs/ the man pages
// and CLI reference, from the command tree, the preset reference
// (docs/presets.md), from the presets, and the jitter simulation's
// tables and chart; runner/classify/presets_lits.go, the literals of
// every preset expression. Tests fail when the committed files are out of date.

//go:generate go run ./docs/gen
//go:generate go run ./bench/jittersim -docs docs
//go:generate go run ./runner/classify/internal/genlits
