package display_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tensornb/tensornb/internal/browsertest"
)

// The browser tests open pages made of displays in headless Chromium (see
// internal/browsertest).

// browser starts Chromium for the test.
func browser(t *testing.T) context.Context { return browsertest.Start(t, 90*time.Second) }

// openPage loads html in the browser and returns the page's JavaScript
// errors.
func openPage(t *testing.T, ctx context.Context, html string) *browsertest.Errors {
	return browsertest.OpenHTML(t, ctx, html)
}

// pageOf wraps display HTML fragments into a page, as a notebook export
// places outputs one after another.
func pageOf(fragments ...string) string {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>tensornb displays</title></head><body>\n")
	for _, f := range fragments {
		b.WriteString("<div class=\"output\">\n" + f + "\n</div>\n")
	}
	b.WriteString("</body></html>\n")
	return b.String()
}
