// Command tensornb-site builds tensornb's static site, the notebooks as
// pages whose cells run in the browser (package kernel/internal/browser/site) and
// in JupyterLab running in the browser (JupyterLite, package
// kernel/internal/browser/lite), and serves it for a preview:
//
//	tensornb-site [-module DIR] build SITE    write the site into SITE
//	tensornb-site serve SITE [PORT]           serve SITE on 127.0.0.1:PORT (8000)
//
// scripts/site bundles the page script and the JupyterLite app with npm
// first, then runs it.
package main

import (
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/tensornb/tensornb/kernel/internal/browser/site"
)

func main() {
	module := flag.String("module", ".", "the tensornb module's directory (its notebooks and kernel/cmd/tensornb-wasm)")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage:\n  tensornb-site [-module DIR] build SITE\n  tensornb-site serve SITE [PORT]\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	args := flag.Args()
	var err error
	switch {
	case len(args) == 2 && args[0] == "build":
		err = build(*module, args[1])
	case (len(args) == 2 || len(args) == 3) && args[0] == "serve":
		port := "8000"
		if len(args) == 3 {
			port = args[2]
		}
		err = serve(args[1], port)
	default:
		flag.Usage()
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "tensornb-site:", err)
		os.Exit(1)
	}
}

func build(module, dir string) error {
	start := time.Now()
	if err := site.Write(module, dir); err != nil {
		return err
	}
	fmt.Printf("wrote the site into %s in %.1f s\n", dir, time.Since(start).Seconds())
	return nil
}

func serve(dir, port string) error {
	if _, err := os.Stat(dir + "/index.html"); err != nil {
		return errors.New(dir + " holds no site (no index.html): build it first, with scripts/site " + dir)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", port))
	if err != nil {
		return err
	}
	fmt.Printf("serving %s at http://%s/ (Ctrl-C stops)\n", dir, ln.Addr())
	return http.Serve(ln, site.Handler(dir))
}
