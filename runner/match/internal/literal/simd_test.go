package literal

// haveSIMD and have512 say which SIMD lookups the tests can run here.
var haveSIMD, have512 = simd()
