// A peer for `npm run bench content`: go-trafilatura (github.com/markusmobius/go-trafilatura)
// with its CLI's defaults, kept running for the whole corpus so each page costs only its
// extraction. Reads JSON values {"id", "url", "html" (base64 bytes)} on stdin and writes one
// JSON line {"id", "text", "ms", "error"} per page; "ms" times trafilatura.Extract alone.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"time"

	"github.com/markusmobius/go-trafilatura"
)

type request struct {
	ID   string `json:"id"`
	URL  string `json:"url"`
	HTML []byte `json:"html"`
}

type response struct {
	ID    string  `json:"id"`
	Text  string  `json:"text"`
	Ms    float64 `json:"ms"`
	Error string  `json:"error,omitempty"`
}

// extract runs trafilatura on one page; a panic becomes that page's error, not the process's end.
func extract(req request) (res response) {
	res.ID = req.ID
	defer func() {
		if r := recover(); r != nil {
			res.Error = fmt.Sprint("panic: ", r)
		}
	}()
	// The CLI's defaults (fallback extractors on, comments kept), except the document-wide
	// publish-date scan: dates are not scored, so its time would not be extraction time.
	opts := trafilatura.Options{EnableFallback: true, HtmlDateMode: trafilatura.Disabled}
	if u, err := url.Parse(req.URL); err == nil && u.Host != "" {
		opts.OriginalURL = u
	}
	start := time.Now()
	result, err := trafilatura.Extract(bytes.NewReader(req.HTML), opts)
	res.Ms = float64(time.Since(start).Microseconds()) / 1000
	if err != nil {
		res.Error = err.Error()
		return res
	}
	res.Text = result.ContentText
	if result.CommentsText != "" {
		res.Text += "\n" + result.CommentsText
	}
	return res
}

func main() {
	in := json.NewDecoder(os.Stdin)
	out := json.NewEncoder(os.Stdout) // unbuffered: each line reaches the bench at once
	for {
		var req request
		if err := in.Decode(&req); err == io.EOF {
			return
		} else if err != nil {
			fmt.Fprintln(os.Stderr, "bad request:", err)
			os.Exit(2)
		}
		if err := out.Encode(extract(req)); err != nil {
			os.Exit(1)
		}
	}
}
