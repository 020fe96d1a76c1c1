// A small program whose CPU and heap profiles (runtime/pprof) are the
// test inputs of cganalyze's pprof reader: recursion, a function called
// from two places, and allocations from two call paths.
package main

import (
	"os"
	"runtime"
	"runtime/pprof"
)

var sink [][]byte

//go:noinline
func fib(n int) int {
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2)
}

//go:noinline
func spin(k int) int {
	s := 0
	for i := 0; i < k; i++ {
		s += i * i % 7
	}
	return s
}

//go:noinline
func hot() int { return spin(40000000) + fib(30) }

//go:noinline
func cold() int { return spin(15000000) }

//go:noinline
func allocSmall() {
	for i := 0; i < 2000; i++ {
		sink = append(sink, make([]byte, 512))
	}
}

//go:noinline
func allocBig() {
	for i := 0; i < 200; i++ {
		sink = append(sink, make([]byte, 64<<10))
	}
}

func main() {
	runtime.MemProfileRate = 4096
	cpu, _ := os.Create(os.Args[1])
	pprof.StartCPUProfile(cpu)
	t := 0
	for r := 0; r < 6; r++ {
		t += hot() + cold()
	}
	pprof.StopCPUProfile()
	cpu.Close()
	allocSmall()
	allocBig()
	runtime.GC()
	heap, _ := os.Create(os.Args[2])
	pprof.WriteHeapProfile(heap)
	heap.Close()
	if t == 42 {
		println(t)
	}
}
