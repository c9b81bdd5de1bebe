// vcsim for hvx's tests: govmomi's simulator.VPX() (a vCenter speaking SOAP vim25) with N hosts
// in one cluster and M VMs, served on a loopback port; prints the SDK URL, then waits for a signal.
// Built by scripts/build-vcsim.sh from Debian's golang-github-vmware-govmomi-dev (GOPATH mode).
package main

import (
	"flag"
	"fmt"
	"log"
	"net/url"
	"os"
	"os/signal"
	"syscall"

	"github.com/vmware/govmomi/simulator"
)

func main() {
	hosts := flag.Int("hosts", 3, "hosts in the cluster")
	standalone := flag.Int("standalone", 1, "standalone hosts (no cluster)")
	vms := flag.Int("vms", 2, "VMs per resource pool (the cluster's and each standalone host's)")
	listen := flag.String("listen", "127.0.0.1:0", "address to serve on")
	username := flag.String("username", "user", "the only user name Login accepts")
	password := flag.String("password", "pass", "its password")
	flag.Parse()

	model := simulator.VPX()
	model.ClusterHost, model.Host, model.Machine = *hosts, *standalone, *vms
	if err := model.Create(); err != nil {
		log.Fatal(err)
	}
	defer model.Remove()
	model.Service.Listen = &url.URL{Host: *listen, User: url.UserPassword(*username, *password)}
	server := model.Service.NewServer()
	defer server.Close()
	sdk := *server.URL
	sdk.User = nil
	fmt.Println(sdk.String())

	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGINT, syscall.SIGTERM)
	<-stop
}
