package main

import (
	"strconv"
	"strings"

	"github.com/b0a38808/retry/internal/redistest"
)

// redisCPU returns the CPU seconds, user and system, that the server has
// used since it started (INFO cpu), or 0 without a server.
func redisCPU(s *redistest.Server) float64 {
	if s == nil {
		return 0
	}
	v, err := s.Do("INFO", "cpu")
	text, ok := v.(string)
	if err != nil || !ok {
		return 0
	}
	var sum float64
	for _, line := range strings.Split(text, "\n") {
		k, val, ok := strings.Cut(strings.TrimSpace(line), ":")
		if ok && (k == "used_cpu_sys" || k == "used_cpu_user") {
			f, _ := strconv.ParseFloat(val, 64)
			sum += f
		}
	}
	return sum
}
