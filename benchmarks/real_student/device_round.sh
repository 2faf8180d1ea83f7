#!/usr/bin/env bash
# One device call: train a model per (training set, seed), each writes answers for one prompts file.
#
#   SETS="targeted uniform" SEEDS="1 2 3" PROMPTS=heldout bash benchmarks/real_student/device_round.sh
#
# Inputs (git-ignored, carried): benchmarks/real_student/data/<set>.jsonl (SFT rows) and data/<PROMPTS>.jsonl
# (either may be gzipped: <name>.jsonl.gz).
# Knobs (environment): STEPS (1500), JOBS (models trained at once on the one GPU, 3), TRAIN_ARGS (more train.py
# flags, e.g. "--observe-first --batch 48"), GEN_ARGS (more generate.py flags), TOKENIZER_SET (a set whose rows
# train one tokenizer that every model shares: same start for every set), CAP_MIN (each training run stops here,
# 2.5), LIMIT_S (the whole script's deadline, 540). Models stay on the device; $OUT/round.tar.gz brings back
# answers/<set>-s<seed>.jsonl, logs/ and configs/ (one file: the device returns 8 files at most), and
# $OUT/summary.txt one line per model.
set -u
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/rs_out}; W=/tmp/rs_work; rm -rf $W/answers $W/logs $W/configs  # models of earlier calls stay
mkdir -p "$OUT" $W/answers $W/logs $W/configs $W/models
SETS=${SETS:?name the training sets: data/<set>.jsonl}; SEEDS=${SEEDS:-1}; PROMPTS=${PROMPTS:?data/<name>.jsonl}
STEPS=${STEPS:-1500}; JOBS=${JOBS:-3}; CAP_MIN=${CAP_MIN:-2.5}; LIMIT_S=${LIMIT_S:-540}
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=4
START=$(date +%s)
file_of() { if [ -f "data/$1.jsonl" ]; then echo "data/$1.jsonl"; else echo "data/$1.jsonl.gz"; fi; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader; python3 -c 'import torch; print(torch.__version__)'
TOK=()
if [ -n "${TOKENIZER_SET:-}" ]; then
  python3 train.py --rows "$(file_of "$TOKENIZER_SET")" --out $W/tok --tokenizer-only ${TRAIN_ARGS:-} || exit 1
  TOK=(--tokenizer $W/tok/tokenizer.json)
fi

one() {  # set seed: train, then answer the prompts
  local name="${1//\//_}-s$2" left=$(( LIMIT_S - $(date +%s) + START ))
  { timeout "$left" python3 train.py --rows "$(file_of "$1")" --out "$W/models/$name" --seed "$2" --steps "$STEPS" \
      --max-minutes "$CAP_MIN" "${TOK[@]}" ${TRAIN_ARGS:-} &&
    timeout $(( LIMIT_S - $(date +%s) + START )) python3 generate.py --model "$W/models/$name" \
      --prompts "$(file_of "$PROMPTS")" --out "$W/answers/$name.jsonl" ${GEN_ARGS:-}; } > "$W/logs/$name.log" 2>&1
  cp "$W/models/$name/config.json" "$W/configs/$name.json" 2>/dev/null
  echo "$name: $(grep -h '^done:' "$W/logs/$name.log") | $(grep -h 'answers in' "$W/logs/$name.log")" \
    | tee -a "$OUT/summary.txt"
}

for set in $SETS; do for seed in $SEEDS; do
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
  if [ $(( $(date +%s) - START )) -gt $(( LIMIT_S - 120 )) ]; then echo "skipped $set-s$seed: no time left" \
    | tee -a "$OUT/summary.txt"; continue; fi
  one "$set" "$seed" &
done; done
wait  # each python run has its timeout: nothing outlives LIMIT_S
tar -czf "$OUT/round.tar.gz" -C $W answers logs configs
tail -n 3 $W/logs/*.log
echo "total $(( $(date +%s) - START ))s"
