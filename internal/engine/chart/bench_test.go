package chart

import (
	"context"
	"testing"
)

// BenchmarkLoadAndRender_demo is one $chart of the test chart: loading
// its folder and rendering it with the hooks and CRDs.
func BenchmarkLoadAndRender_demo(b *testing.B) {
	for b.Loop() {
		c, err := Load(demoDir, OSFiles(0))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := c.Render(context.Background(), Options{IncludeCRDs: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRender_demo renders a loaded chart again, as a second $chart
// of the same chart in one process does not (each render loads).
func BenchmarkRender_demo(b *testing.B) {
	c, err := Load(demoDir, OSFiles(0))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := c.Render(context.Background(), Options{IncludeCRDs: true}); err != nil {
			b.Fatal(err)
		}
	}
}
