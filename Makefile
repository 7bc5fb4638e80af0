# Buddy: two commands a newcomer needs (README): `make run` and `make test`.
.PHONY: setup run test lint clean lock

setup:
	@bash scripts/setup.sh

# `set -m` runs buddy in its own foreground process group: Ctrl-C reaches buddy alone,
# which stops cleanly with status 0, instead of also killing make ("Interrupt", 130).
run: setup
	@AMENT_PREFIX_PATH=$(CURDIR)/.venv bash -c 'set -m; .venv/bin/buddy run "$$@"; exit $$?' buddy-run $(ARGS)

test:
	@bash scripts/test.sh $(ARGS)

lint: setup
	@.venv/bin/ruff check .

lock:
	@.venv/bin/python -m pip freeze --exclude-editable | grep -v '^buddy' > constraints.txt.new \
	  && echo "review constraints.txt.new, then move it over constraints.txt"

clean:
	rm -rf build .venv

# Regenerate the golden bags under test/data/ from the committed scenarios (docs/REPLAY.md);
# a bag is written only when its scenario's expected timeline holds.
.PHONY: golden
golden: setup
	@AMENT_PREFIX_PATH=$(CURDIR)/.venv .venv/bin/python -m buddy_personality.tools.sim.scenarios.golden $(ARGS)
