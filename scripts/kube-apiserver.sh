#!/usr/bin/env bash
# scripts/kube-apiserver.sh COMMAND [ARGS...]
#
# Runs COMMAND beside a real Kubernetes API server on 127.0.0.1, the oracle
# the tests in internal/apiserver compare `validate` with:
#
#   scripts/kube-apiserver.sh go test ./internal/apiserver/...
#
# 1. etcd: Debian's etcd-server, installed with apt-get when `etcd` is not
#    on PATH (as root, or through sudo).
# 2. kube-apiserver: built from the k8s.io/kubernetes module pinned in
#    tools/kube-apiserver/go.mod (a module of its own: k8s.io/kubernetes
#    never enters the provider's go.mod) into a cache folder outside the
#    clone, $CELYAML_CACHE or ${XDG_CACHE_HOME:-~/.cache}/celyaml, and
#    reused from there while that go.mod and go.sum are unchanged. The first
#    build takes many minutes; later runs start in seconds.
# 3. Certificates (openssl), a token file and the service-account key are
#    generated in a temporary folder; etcd and kube-apiserver listen on free
#    ports of 127.0.0.1 only, with AlwaysAllow authorization (nothing else
#    can reach them). There is no controller manager: nothing finalizes a
#    deleted Namespace and no Deployment ever becomes ready.
# 4. Once /readyz answers ok, COMMAND runs with KUBECONFIG pointing at a
#    kubeconfig for the server and CELYAML_APISERVER=1. Both servers are
#    stopped and the temporary folder removed when the script exits, however
#    it exits; the script exits with COMMAND's status.
#
# KEEP_APISERVER_LOGS=1 keeps the temporary folder (logs included).
set -euo pipefail

if (($# == 0)); then
  echo "usage: $0 COMMAND [ARGS...]" >&2
  exit 2
fi

root="$(cd "$(dirname "$0")/.." && pwd)"
tool="$root/tools/kube-apiserver"
start_all=$SECONDS

say() { printf 'kube-apiserver.sh: %s\n' "$*" >&2; }
die() {
  say "$*"
  exit 1
}

version="$(awk '$1 == "require" && $2 == "k8s.io/kubernetes" { print $3 }' "$tool/go.mod")"
[[ "$version" =~ ^v1\.([0-9]+)\.[0-9]+$ ]] || die "cannot read the k8s.io/kubernetes version from $tool/go.mod"
minor="${BASH_REMATCH[1]}"

# --- etcd -------------------------------------------------------------------
if ! command -v etcd >/dev/null 2>&1; then
  sudo=()
  if ((EUID != 0)); then
    command -v sudo >/dev/null 2>&1 || die "etcd is not installed and installing it needs root: apt-get install etcd-server"
    sudo=(sudo)
  fi
  command -v apt-get >/dev/null 2>&1 || die "etcd is not installed and there is no apt-get: install etcd (3.4 or later) by hand"
  say "installing etcd (Debian's etcd-server) with apt-get"
  t=$SECONDS
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends etcd-server >/dev/null
  say "etcd installed in $((SECONDS - t))s"
fi
say "etcd $(etcd --version 2>/dev/null | awk '/etcd Version/ { print $3 }')"

# --- kube-apiserver ---------------------------------------------------------
cache="${CELYAML_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/celyaml}/kube-apiserver-$version"
bin="$cache/kube-apiserver"
stamp="$(cat "$tool/go.mod" "$tool/go.sum" | sha256sum | cut -d' ' -f1)"
if [[ -x "$bin" && "$(cat "$cache/stamp" 2>/dev/null)" == "$stamp" ]]; then
  say "kube-apiserver $version from $bin"
else
  say "building kube-apiserver $version into $bin (the first build takes many minutes)"
  t=$SECONDS
  mkdir -p "$cache"
  (
    cd "$tool"
    CGO_ENABLED=0 go build -trimpath -o "$bin.tmp" \
      -ldflags "-s -w -X k8s.io/component-base/version.gitVersion=$version -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=$minor -X k8s.io/component-base/version.gitTreeState=clean" \
      k8s.io/kubernetes/cmd/kube-apiserver
  ) || die "go build k8s.io/kubernetes/cmd/kube-apiserver failed (output above)"
  mv "$bin.tmp" "$bin"
  echo "$stamp" >"$cache/stamp"
  say "kube-apiserver built in $((SECONDS - t))s"
fi

# --- a temporary folder, and stopping everything on exit --------------------
tmp="$(mktemp -d "${TMPDIR:-/tmp}/celyaml-apiserver.XXXXXX")"
pids=()
cleanup() {
  local status=$?
  trap - EXIT INT TERM
  local i pid
  # kube-apiserver first (it needs etcd to shut down cleanly), then etcd;
  # each gets 20s to exit before it is killed.
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    pid="${pids[i]}"
    kill "$pid" 2>/dev/null || continue
    for _ in $(seq 200); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  if [[ "${KEEP_APISERVER_LOGS:-0}" == 1 ]]; then
    say "logs kept in $tmp"
  else
    rm -rf "$tmp"
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# free_port prints a TCP port of 127.0.0.1 nothing listens on, other than
# those given as arguments.
free_port() {
  local port taken
  for _ in $(seq 100); do
    port=$((20000 + RANDOM % 40000))
    taken=0
    for p in "$@"; do [[ "$p" == "$port" ]] && taken=1; done
    ((taken)) && continue
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return
    fi
  done
  die "no free port found on 127.0.0.1"
}

# show_log FILE: the end of a server's log, after a failure.
show_log() {
  say "last lines of $(basename "$1"):"
  tail -n 40 "$1" >&2 || true
}

# --- certificates, token, service-account key -------------------------------
t=$SECONDS
pki="$tmp/pki"
mkdir -p "$pki"
(
  cd "$pki"
  openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=celyaml-test-ca" \
    -keyout ca.key -out ca.crt 2>/dev/null
  openssl req -newkey rsa:2048 -nodes -subj "/CN=kube-apiserver" \
    -keyout apiserver.key -out apiserver.csr 2>/dev/null
  printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n' >apiserver.ext
  openssl x509 -req -in apiserver.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 2 \
    -extfile apiserver.ext -out apiserver.crt 2>/dev/null
  openssl genrsa -out sa.key 2048 2>/dev/null
  openssl rsa -in sa.key -pubout -out sa.pub 2>/dev/null
) || die "openssl could not generate the certificates"
token="$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')"
echo "$token,celyaml-test,celyaml-test,system:masters" >"$pki/tokens.csv"
say "certificates generated in $((SECONDS - t))s"

# --- etcd -------------------------------------------------------------------
t=$SECONDS
etcd_port="$(free_port)"
etcd_peer="$(free_port "$etcd_port")"
etcd --name celyaml-test --data-dir "$tmp/etcd" \
  --listen-client-urls "http://127.0.0.1:$etcd_port" --advertise-client-urls "http://127.0.0.1:$etcd_port" \
  --listen-peer-urls "http://127.0.0.1:$etcd_peer" --initial-advertise-peer-urls "http://127.0.0.1:$etcd_peer" \
  --initial-cluster "celyaml-test=http://127.0.0.1:$etcd_peer" \
  --logger zap --log-level warn >"$tmp/etcd.log" 2>&1 &
pids+=($!)
for i in $(seq 300); do
  if curl -sf "http://127.0.0.1:$etcd_port/health" 2>/dev/null | grep -q '"health":"true"'; then
    break
  fi
  if ! kill -0 "${pids[0]}" 2>/dev/null; then
    show_log "$tmp/etcd.log"
    die "etcd exited before it was ready"
  fi
  ((i == 300)) && {
    show_log "$tmp/etcd.log"
    die "etcd was not healthy after 30s"
  }
  sleep 0.1
done
say "etcd ready on 127.0.0.1:$etcd_port in $((SECONDS - t))s"

# --- kube-apiserver ---------------------------------------------------------
t=$SECONDS
port="$(free_port "$etcd_port" "$etcd_peer")"
"$bin" \
  --bind-address=127.0.0.1 --advertise-address=127.0.0.1 --secure-port="$port" \
  --etcd-servers="http://127.0.0.1:$etcd_port" \
  --tls-cert-file="$pki/apiserver.crt" --tls-private-key-file="$pki/apiserver.key" \
  --token-auth-file="$pki/tokens.csv" --authorization-mode=AlwaysAllow \
  --service-account-key-file="$pki/sa.pub" --service-account-signing-key-file="$pki/sa.key" \
  --service-account-issuer=https://kubernetes.default.svc.cluster.local \
  --service-cluster-ip-range=10.96.0.0/16 \
  --endpoint-reconciler-type=none \
  --cert-dir="$tmp/certs" --profiling=false \
  >"$tmp/kube-apiserver.log" 2>&1 &
pids+=($!)
ready=""
for i in $(seq 1200); do
  if [[ "$(curl -s --cacert "$pki/ca.crt" -H "Authorization: Bearer $token" "https://127.0.0.1:$port/readyz" 2>/dev/null)" == ok ]]; then
    ready=1
    break
  fi
  if ! kill -0 "${pids[1]}" 2>/dev/null; then
    show_log "$tmp/kube-apiserver.log"
    die "kube-apiserver exited before it was ready"
  fi
  sleep 0.1
done
if [[ -z "$ready" ]]; then
  curl -s --cacert "$pki/ca.crt" -H "Authorization: Bearer $token" "https://127.0.0.1:$port/readyz?verbose" >&2 || true
  show_log "$tmp/kube-apiserver.log"
  die "kube-apiserver was not ready after 120s"
fi
say "kube-apiserver $version ready on https://127.0.0.1:$port in $((SECONDS - t))s"

export KUBECONFIG="$tmp/kubeconfig"
cat >"$KUBECONFIG" <<EOF
apiVersion: v1
kind: Config
clusters:
  - name: celyaml-test
    cluster:
      server: https://127.0.0.1:$port
      certificate-authority: $pki/ca.crt
users:
  - name: celyaml-test
    user:
      token: $token
contexts:
  - name: celyaml-test
    context:
      cluster: celyaml-test
      user: celyaml-test
current-context: celyaml-test
EOF
export CELYAML_APISERVER=1
say "started in $((SECONDS - start_all))s; running: $*"

t=$SECONDS
status=0
"$@" || status=$?
say "command finished in $((SECONDS - t))s (exit $status); stopping etcd and kube-apiserver"
exit "$status"
