package literal

import (
	"bytes"
	"testing"
)

func BenchmarkKern(b *testing.B) {
	data := bytes.Repeat([]byte("2026-11-30T07:00:05.005Z INFO request id=5 path=/api/v1/items/35 status=200 bytes=65 took=5ms\n"), 12000)[:1<<20]
	var t tables
	b.Run("avx2", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			scanAVX2(&t, data, 0)
		}
	})
	b.Run("indexbyte", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			bytes.IndexByte(data, 0)
		}
	})
}
