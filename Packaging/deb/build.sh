#!/usr/bin/env bash
# make deb: builds out/imgcache_VERSION-1_ARCH.deb with dpkg-deb, then checks it with lintian.
#
# The package: /usr/bin/imgcache (release build, the Swift runtime linked statically, stripped),
# the systemd unit and its environment file (Samples/serve, the unit's ExecStart pointed at
# /usr/bin), the bash, zsh and fish completions and the man page (written by the binary itself),
# /usr/share/doc/imgcache/copyright (LICENSE in Debian's machine-readable format), the changelogs,
# and the maintainer scripts of this folder (the imgcache user and /var/cache/imgcache, removed on
# purge). Depends: is computed by dpkg-shlibdeps from the libraries the binary links, plus adduser.
#
# Usage: Packaging/deb/build.sh [--no-lintian]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
lintian=yes
[ "${1-}" = --no-lintian ] && lintian=no

# The Swift runtime is not in Debian: linked statically, the binary needs only Debian's libraries.
# Relocations resolved at start and then read-only (-z now), as Debian builds its packages.
# FoundationNetworking's per-transfer host check goes to Sources/CCurlHost's, which does not leak
# the request's URL (--wrap: statically linked, the toolchain's own definition wins the link).
flags=(-c release --static-swift-stdlib -Xlinker -z -Xlinker now -Xlinker --wrap=CFURLSessionCurlHostIsEqual)
swift build "${flags[@]}" --product imgcache
binary=$(swift build "${flags[@]}" --show-bin-path)/imgcache

version=$("$binary" --version | awk '{ print $2 }')
revision=1
arch=$(dpkg --print-architecture)
# The package's date (its files' and the changelog's): the commit's, unless given.
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
name=imgcache_${version}-${revision}_${arch}
work=out/deb
root=$work/$name
rm -rf "$work"
mkdir -p "$root/DEBIAN" "$root/usr/bin" "$root/lib/systemd/system" "$root/etc/imgcache" "$root/usr/share/man/man1" \
  "$root/usr/share/doc/imgcache" "$root/usr/share/lintian/overrides"
# Builds leave files group-writable under a umask of 002; the package's modes are set here.
umask 022

install -m 0755 "$binary" "$root/usr/bin/imgcache"
strip --remove-section=.comment --remove-section=.note --strip-unneeded "$root/usr/bin/imgcache"

# The unit as Samples/serve has it, but for a header for the package, the binary's path and the
# man page (which systemd-analyze verify wants installed, so the sample cannot name it).
{
  echo "# imgcache serve as a systemd service, installed by the imgcache package. Set IMGCACHE_KEY"
  echo "# and IMGCACHE_SALT in /etc/imgcache/serve.env, then: systemctl enable --now imgcache-serve."
  sed -e '1,/^$/d' -e 's|/usr/local/bin/imgcache|/usr/bin/imgcache|' -e '/^Description=/a Documentation=man:imgcache(1)' \
    Samples/serve/imgcache-serve.service
} > "$root/lib/systemd/system/imgcache-serve.service"
chmod 0644 "$root/lib/systemd/system/imgcache-serve.service"
install -m 0640 Samples/serve/imgcache-serve.env "$root/etc/imgcache/serve.env"
echo /etc/imgcache/serve.env > "$root/DEBIAN/conffiles"

for shell in bash zsh fish; do
  path=$("$binary" completions "$shell" | sed -n 's|^# /\(usr/.*\)$|\1|p')
  [ -n "$path" ] || { echo "deb: the $shell completion names no path to install it at" >&2; exit 1; }
  install -d "$root/$(dirname "$path")"
  "$binary" completions "$shell" > "$root/$path"
  chmod 0644 "$root/$path"
done
"$binary" man | gzip -9n > "$root/usr/share/man/man1/imgcache.1.gz"

# LICENSE as the machine-readable copyright file's Expat text: each line indented, blank lines " .".
{
  cat Packaging/deb/copyright.in
  sed -e '1,/^Copyright/d' -e '/./!s/^/ ./' -e '/^ \.$/!s/^/ /' LICENSE | sed -e '1{/^ \.$/d}'
} > "$root/usr/share/doc/imgcache/copyright"
commit=$("$binary" --version | sed -n 's/.*(commit \(.*\))$/\1/p')
date=$(date -R -u -d "@$SOURCE_DATE_EPOCH")
maintainer="imgcache authors <maintainers@imgcache.invalid>"
printf 'imgcache (%s-%s) unstable; urgency=medium\n\n  * Built by make deb from commit %s.\n\n -- %s  %s\n' \
  "$version" "$revision" "$commit" "$maintainer" "$date" | gzip -9n > "$root/usr/share/doc/imgcache/changelog.Debian.gz"
gzip -9n < CHANGELOG.md > "$root/usr/share/doc/imgcache/changelog.gz"
install -m 0644 Packaging/deb/lintian-overrides "$root/usr/share/lintian/overrides/imgcache"
install -m 0755 Packaging/deb/postinst Packaging/deb/prerm Packaging/deb/postrm "$root/DEBIAN/"
find "$root" -type d -exec chmod 0755 {} +
chmod 0755 "$root/etc/imgcache"

# Depends: from the libraries the binary links (dpkg-shlibdeps reads a debian/control beside it).
mkdir -p "$work/shlibs/debian"
printf 'Source: imgcache\n\nPackage: imgcache\nArchitecture: any\n' > "$work/shlibs/debian/control"
depends=$(cd "$work/shlibs" && dpkg-shlibdeps -O "-e$OLDPWD/$root/usr/bin/imgcache" | sed -n 's/^shlibs:Depends=//p')

cat > "$root/DEBIAN/control" <<CONTROL
Package: imgcache
Version: $version-$revision
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
Depends: adduser, $depends
Section: graphics
Priority: optional
Description: image pipeline and server for widgets and small surfaces
 imgcache fetches, decodes and prepares images (JPEG, PNG, GIF, WebP, HEIC,
 AVIF) for small, memory-capped surfaces such as iOS widgets, through a shared
 disk cache, and serves imgproxy-compatible signed URLs (imgcache serve).
 .
 The imgcache-serve systemd unit runs as the imgcache user with its cache in
 /var/cache/imgcache; it is not enabled until the key and salt are set in
 /etc/imgcache/serve.env.
CONTROL

(cd "$root" && find . -type f ! -path './DEBIAN/*' -printf '%P\0' | sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/md5sums"
# Every file dated as the commit, so that the same commit packs the same archive members.
find "$root" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +

dpkg-deb --root-owner-group -Zxz --build "$root" "out/$name.deb"
echo "deb: out/$name.deb"
dpkg-deb --field "out/$name.deb" Depends
if [ "$lintian" = yes ]; then
  lintian --fail-on error,warning --info "out/$name.deb"
fi
