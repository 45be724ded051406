#!/usr/bin/env bash
# Installs the package make deb built as an operator would, checks it, and removes and purges it:
#   apt-get install ./out/imgcache_*.deb (apt resolves Depends:), imgcache --version, the man page,
#   bash completion of 'imgcache fetch --wid', the imgcache user, its cache folder and the
#   environment file's owner and mode; then imgcache serve as the imgcache user with the packaged
#   environment file (a key and salt written into it) answering a signed URL of an image on a
#   local origin; then apt-get remove (the user and the settings stay) and purge (the user, the
#   group, /var/cache/imgcache, /etc/imgcache and every file of the package gone).
# Needs root (or sudo), no systemd: serve runs under runuser. The machine is left as it was,
# unless the package was installed before (then it refuses to start).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
sudo=
if [ "$(id -u)" -ne 0 ]; then sudo=sudo; fi
fail() { echo "deb smoke: $*" >&2; exit 1; }

debs=(out/imgcache_*.deb)
[ "${#debs[@]}" = 1 ] && [ -f "${debs[0]}" ] || fail "expected one out/imgcache_*.deb (make deb), found: ${debs[*]}"
deb=${debs[0]}
if dpkg-query -W -f='${db:Status-Status}' imgcache 2>/dev/null | grep -qv not-installed; then
  fail "imgcache is already installed (or its settings are left): purge it first"
fi
getent passwd imgcache >/dev/null && fail "a user imgcache exists already"

work=$(mktemp -d)
origin_pid= serve_pid=
cleanup() {
  [ -n "$serve_pid" ] && $sudo kill "$serve_pid" 2>/dev/null
  [ -n "$origin_pid" ] && kill "$origin_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

echo "== apt-get install ./$deb"
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "./$deb"
dpkg-query -L imgcache | sort > "$work/files"

echo "== the installed package"
[ "$(command -v imgcache)" = /usr/bin/imgcache ] || fail "imgcache is not /usr/bin/imgcache"
imgcache --version | grep -E '^imgcache [0-9.]+ \(commit ([0-9a-f]{12}(-dirty)?|unknown)\)$' || fail "imgcache --version"
[ "$(man -w imgcache)" = /usr/share/man/man1/imgcache.1.gz ] || fail "man -w imgcache: $(man -w imgcache 2>&1)"
MANWIDTH=200 man imgcache 2>/dev/null | grep -q "imgcache - prepares images" || fail "man imgcache does not show the page"
completion=$(bash --norc -c 'source /usr/share/bash-completion/completions/imgcache
  COMP_WORDS=(imgcache fetch --wid); COMP_CWORD=2; _imgcache; printf "%s\n" "${COMPREPLY[@]}"')
[ "$completion" = --widget ] || fail "bash completion of 'imgcache fetch --wid' gave '$completion'"
getent passwd imgcache | grep -q ':/var/cache/imgcache:/usr/sbin/nologin$' || fail "user imgcache: $(getent passwd imgcache)"
[ "$(stat -c '%U:%G %a' /var/cache/imgcache)" = "imgcache:imgcache 750" ] || fail "/var/cache/imgcache: $(stat -c '%U:%G %a' /var/cache/imgcache)"
[ "$(stat -c '%U:%G %a' /etc/imgcache/serve.env)" = "root:imgcache 640" ] || fail "serve.env: $(stat -c '%U:%G %a' /etc/imgcache/serve.env)"
grep -q '^ExecStart=/usr/bin/imgcache serve' /lib/systemd/system/imgcache-serve.service || fail "the unit's ExecStart"
verify=$(systemd-analyze verify /lib/systemd/system/imgcache-serve.service 2>&1) && [ -z "$verify" ] \
  || fail "systemd-analyze verify imgcache-serve.service: $verify"

echo "== imgcache serve as the imgcache user, with /etc/imgcache/serve.env"
key=$(openssl rand -hex 32) salt=$(openssl rand -hex 32)
$sudo sed -i -e "s/^IMGCACHE_KEY=\$/IMGCACHE_KEY=$key/" -e "s/^IMGCACHE_SALT=\$/IMGCACHE_SALT=$salt/" /etc/imgcache/serve.env
mkfifo "$work/origin.out" "$work/serve.err"
python3 -u -m http.server 0 --bind 127.0.0.1 --directory Samples/media > "$work/origin.out" 2>/dev/null &
origin_pid=$!
read -r origin_line < "$work/origin.out"
origin_port=$(sed -n 's/.* port \([0-9]*\) .*/\1/p' <<<"$origin_line")
[ -n "$origin_port" ] || fail "the origin did not start: $origin_line"
# The unit's options but the port (0: any free one); the variables as systemd's EnvironmentFile= reads them.
$sudo runuser -u imgcache -- env -i PATH=/usr/bin:/bin bash -c 'set -a; . /etc/imgcache/serve.env; set +a
  exec imgcache serve --listen 127.0.0.1:0 --cache-dir /var/cache/imgcache --allow-private-sources' 2> "$work/serve.err" &
serve_pid=$!
exec 3< "$work/serve.err"
read -r serve_line <&3
address=$(sed -n 's|.*listening on \(http://[0-9.:]*\) .*|\1|p' <<<"$serve_line")
[ -n "$address" ] || fail "serve did not start: $serve_line"
path="/rs:fit:120:120/plain/http://127.0.0.1:$origin_port/harbour.jpg@png"
signature=$( (printf '%s' "$salt" | tr a-f A-F | basenc --base16 -d; printf '%s' "$path") |
  openssl dgst -sha256 -mac HMAC -macopt "hexkey:$key" -binary | base64 | tr '+/' '-_' | tr -d '=')
status=$(curl -sS -o "$work/harbour.png" -w '%{http_code} %{content_type}' "$address/$signature$path")
[ "$status" = "200 image/png" ] || fail "GET $path: $status"
imgcache info "$work/harbour.png" | grep -q "120x80 pixels" || fail "the served image: $(imgcache info "$work/harbour.png")"
[ "$(curl -sS -o /dev/null -w '%{http_code}' "$address/AAAA$path")" = 403 ] || fail "a bad signature was not refused"
[ -n "$($sudo find /var/cache/imgcache/data -user imgcache -type f)" ] || fail "serve stored nothing in /var/cache/imgcache as imgcache"
# SIGTERM to serve itself (runuser's child), as systemd sends it: it drains and exits 0, and so does runuser.
serve_process=$(ps -o pid= --ppid "$serve_pid" | tr -d ' ')
[ "$(ps -o user= -p "$serve_process")" = imgcache ] || fail "serve does not run as imgcache: $(ps -o user=,args= -p "$serve_process")"
$sudo kill -TERM "$serve_process"
wait "$serve_pid" || fail "serve did not exit 0 on SIGTERM"
serve_pid=
exec 3<&-
echo "served $path: $status, 120x80, stored as imgcache; SIGTERM: exit 0"

echo "== apt-get remove imgcache"
$sudo env DEBIAN_FRONTEND=noninteractive apt-get remove -y -q imgcache
[ ! -e /usr/bin/imgcache ] || fail "/usr/bin/imgcache is left after remove"
getent passwd imgcache >/dev/null || fail "remove took the imgcache user (only purge should)"
[ -f /etc/imgcache/serve.env ] || fail "remove took the settings (only purge should)"

echo "== apt-get purge imgcache"
$sudo env DEBIAN_FRONTEND=noninteractive apt-get purge -y -q imgcache
! getent passwd imgcache >/dev/null || fail "the imgcache user is left after purge"
! getent group imgcache >/dev/null || fail "the imgcache group is left after purge"
[ ! -e /var/cache/imgcache ] || fail "/var/cache/imgcache is left after purge"
[ ! -e /etc/imgcache ] || fail "/etc/imgcache is left after purge"
! dpkg-query -L imgcache >/dev/null 2>&1 || fail "dpkg still lists imgcache's files"
while read -r file; do
  [ -d "$file" ] || [ ! -e "$file" ] || fail "$file is left after purge"
done < "$work/files"
echo "deb smoke: installed, served, removed and purged cleanly"
