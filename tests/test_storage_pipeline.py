"""Steps' writes sent from the event loop (``Store.flush_soon``) on both databases: committed when
the call returns, a step all or none, steps of many games batched in one round trip on
PostgreSQL, and a step another writer stored first refused alone (``Taken``) while the others of
its batch are stored."""

from __future__ import annotations

import asyncio

import pytest

from ginrummy.storage import SeatRow, Store, Taken, hash_token


def _games(store: Store, n: int) -> list[str]:
    ids = [f"g{i}" for i in range(n)]
    for gid in ids:
        store.create_game(
            game_id=gid,
            rules={"preset": "classic", "overrides": {}},
            seed=7,
            first_dealer=0,
            seats=[SeatRow(0, hash_token("t0"), "Ann", "human"), SeatRow(1, hash_token("t1"), "Bo", "simple")],
        )
        store.add_hand(gid, 0, 0, list(range(52)), "n0")
    return ids


def _step(store: Store, gid: str, seq: int, action: str = "pass") -> list:  # type: ignore[type-arg]
    with store.collect() as writes:
        store.append_action(gid, seq, 0, (seq + 1) % 2, action)
    return writes


def _stored(store: Store, gid: str) -> list[tuple[int, str]]:
    """The game's stored actions (seq, text), read on another connection than the writer's."""
    with store.connection() as c:
        rows = c.execute("SELECT seq, action FROM actions WHERE game_id = ? ORDER BY seq", (gid,)).fetchall()
    return [(int(r[0]), str(r[1])) for r in rows]


async def _with_pipeline(store: Store, work):  # type: ignore[no-untyped-def]
    await store.open_pipeline()
    try:
        return await work()
    finally:
        await store.close_pipeline()


def test_a_step_is_stored_when_flush_soon_returns(store_target: str) -> None:
    store = Store(store_target)
    try:
        (gid,) = _games(store, 1)

        async def work() -> None:
            await store.flush_soon(_step(store, gid, 0))
            assert _stored(store, gid) == [(0, "pass")]  # committed

        asyncio.run(_with_pipeline(store, work))
        assert (store._pipeline is not None) is False
    finally:
        store.close()


def test_steps_of_many_games_at_once_are_all_stored_and_one_taken_step_fails_alone(store_target: str) -> None:
    store = Store(store_target)
    try:
        ids = _games(store, 40)
        store.append_action(ids[7], 0, 0, 1, "pass")  # another writer stored game 7's first move

        async def work() -> list[BaseException | None]:
            results = await asyncio.gather(*(store.flush_soon(_step(store, g, 0)) for g in ids), return_exceptions=True)
            if store._pipeline is not None:  # PostgreSQL: the steps waiting went together
                assert store._pipeline.steps == 40 and store._pipeline.batches <= 2
            return list(results)

        results = asyncio.run(_with_pipeline(store, work))
        assert isinstance(results[7], Taken) and "action 0 is already stored" in str(results[7])
        assert all(r is None for i, r in enumerate(results) if i != 7)
        assert all(_stored(store, g) == [(0, "pass")] for g in ids)
    finally:
        store.close()


def test_a_step_of_several_writes_is_stored_all_or_none(store_target: str) -> None:
    store = Store(store_target)
    try:
        gid, other = _games(store, 2)
        store.append_action(gid, 1, 0, 0, "stock")  # the step's second write is refused

        async def work() -> None:
            with store.collect() as writes:
                store.append_action(gid, 0, 0, 1, "pass")
                store.append_action(gid, 1, 0, 0, "pass")
            both = asyncio.gather(store.flush_soon(writes), store.flush_soon(_step(store, other, 0)))
            with pytest.raises(Taken):
                await both

        asyncio.run(_with_pipeline(store, work))
        assert _stored(store, gid) == [(1, "stock")]  # its first write went with the refused one
        assert _stored(store, other) == [(0, "pass")]  # the other game's step, sent with it, is stored
    finally:
        store.close()


def test_the_writer_reconnects_after_losing_its_connection(pg_db: str) -> None:
    store = Store(pg_db)
    try:
        gid, other = _games(store, 2)

        async def work() -> None:
            await store.flush_soon(_step(store, gid, 0))
            assert store._pipeline is not None
            with store.connection() as c:  # the server drops the writer's connection
                c.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name = ''"
                )
            failed = 0
            for seq in (1, 2):
                try:
                    await store.flush_soon(_step(store, gid, seq))
                except Exception:  # noqa: BLE001 - the write that met the dropped connection
                    failed += 1
                    await store.flush_soon(_step(store, gid, seq))
            assert failed <= 1
            await store.flush_soon(_step(store, other, 0))

        asyncio.run(_with_pipeline(store, work))
        assert _stored(store, gid) == [(0, "pass"), (1, "pass"), (2, "pass")]
        assert _stored(store, other) == [(0, "pass")]
    finally:
        store.close()


def test_a_step_of_different_writes_is_stored_with_the_moves_of_other_games(store_target: str) -> None:
    store = Store(store_target)
    try:
        gid, other = _games(store, 2)

        async def work() -> None:
            with store.collect() as writes:  # a move that ends the hand, and the hand's end
                store.append_action(gid, 0, 0, 1, "pass")
                store.end_hand(gid, 0, {"kind": "wall"}, [10, 20])
            await asyncio.gather(store.flush_soon(writes), store.flush_soon(_step(store, other, 0)))

        asyncio.run(_with_pipeline(store, work))
        assert _stored(store, gid) == [(0, "pass")] and _stored(store, other) == [(0, "pass")]
        with store.connection() as c:
            row = c.execute("SELECT deadwood FROM hands WHERE game_id = ? AND hand_no = 0", (gid,)).fetchone()
        assert row is not None and "20" in str(row[0])
    finally:
        store.close()
