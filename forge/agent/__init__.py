"""A real student on one machine: a terminal agent that works on Forge tasks through a shell.

shell: one command in the task's bubblewrap sandbox (only the desktop home bound; no network; limits);
chat: one chat-completions turn with the shell tool (cache, retries, prices, as `forge generate` has them);
episode: the loop (instruction -> commands -> outputs -> ... -> done or the step budget), tool calls or a
plain-text fallback; the runner (forge.student_run) scores the end state with the rubric and writes
OSWorld-layout result folders.
"""
