#!/usr/bin/env bash
# The idle timeout of a login session, in seconds.
IDLE_TIMEOUT=${IDLE_TIMEOUT:-86400}
