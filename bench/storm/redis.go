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
	info, err := s.DoString("INFO", "cpu")
	if err != nil {
		return 0
	}
	sys, _ := strconv.ParseFloat(infoField(info, "used_cpu_sys"), 64)
	user, _ := strconv.ParseFloat(infoField(info, "used_cpu_user"), 64)
	return sys + user
}

// redisVersion names the server of an INFO server reply.
func redisVersion(info string) string {
	if v := infoField(info, "redis_version"); v != "" {
		return "Redis " + v
	}
	return "Redis"
}

// infoField returns the value of key in an INFO reply, "" when it has
// none.
func infoField(info, key string) string {
	for _, line := range strings.Split(info, "\n") {
		if k, v, ok := strings.Cut(strings.TrimSpace(line), ":"); ok && k == key {
			return v
		}
	}
	return ""
}
