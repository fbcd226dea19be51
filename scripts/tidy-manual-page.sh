#!/usr/bin/env bash
# Reads a manual page written by swift-argument-parser's generate-manual on standard input and
# writes it to standard output with what mdoc rejects mended, so that `man` shows it without
# warnings. Used by scripts/install.sh and scripts/build-deb.sh for every page they install.
#
# generate-manual copies a command's discussion into the page verbatim. Our discussions separate
# paragraphs with an empty line, as --help shows them; in mdoc an empty line is an error ("Empty
# input line"), and a paragraph break is the .Pp macro.
set -euo pipefail
sed -e 's/^[[:space:]]*$/.Pp/'
