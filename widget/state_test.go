package widget

import (
	"encoding/json"
	"reflect"
	"testing"
)

// A state with buffers nested in an object and in a list goes through
// splitBuffers and joinBuffers (after a trip through JSON, as it travels)
// unchanged.
func TestBuffersRoundTrip(t *testing.T) {
	state := map[string]any{
		"plain": 1.0,
		"top":   []byte("a"),
		"nested": map[string]any{
			"list": []any{"x", []byte("b"), map[string]any{"deep": []byte("c")}},
		},
	}
	clean, paths, buffers := splitBuffers(state)
	if _, ok := state["top"].([]byte); !ok {
		t.Fatal("splitBuffers changed its argument")
	}
	text, err := json.Marshal(map[string]any{"state": clean, "buffer_paths": paths})
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		State       map[string]any `json:"state"`
		BufferPaths [][]any        `json:"buffer_paths"`
	}
	if err := json.Unmarshal(text, &back); err != nil {
		t.Fatal(err)
	}
	if list := back.State["nested"].(map[string]any)["list"].([]any); list[1] != nil {
		t.Errorf("a buffer in a list left %v, want null", list[1])
	}
	if _, ok := back.State["top"]; ok {
		t.Error("a buffer under a key left the key")
	}
	if err := joinBuffers(back.State, back.BufferPaths, buffers); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"plain": 1.0, "top": []byte("a"), "nested": map[string]any{"list": []any{"x", []byte("b"), map[string]any{"deep": []byte("c")}}}}
	if !reflect.DeepEqual(back.State, want) {
		t.Errorf("round trip gave %#v\nwant %#v\n(paths %s)", back.State, want, text)
	}
	for _, p := range [][]any{{"nested", "list", 1.0}, {"nested", "list", 2.0, "deep"}} {
		found := false
		for _, q := range back.BufferPaths {
			found = found || reflect.DeepEqual(p, q)
		}
		if !found {
			t.Errorf("buffer_paths %v lack %v", back.BufferPaths, p)
		}
	}
	if err := joinBuffers(map[string]any{"l": []any{1.0}}, [][]any{{"l", 3.0}}, [][]byte{nil}); err == nil {
		t.Error("an index past a list's end: no error")
	}
}
