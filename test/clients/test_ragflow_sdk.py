"""RAGFlow's official Python SDK (ragflow_sdk 0.27.0, unmodified) against a canvasflow server.

test/clients/ragflow-sdk.test.ts runs this file: it starts the server on 127.0.0.1 (a data-folder
store, a key of one tenant, the mock LLM with no script, so a model echoes
"[mock reply] You said: <question>") and passes it in the environment:

    CANVASFLOW_BASE_URL   http://127.0.0.1:<port>
    CANVASFLOW_API_KEY    the key

The SDK comes from ../shared/clients/ragflow-sdk (PYTHONPATH, with its shim folder). Every case
makes its own agent, so the cases do not depend on each other's order.
"""

import json
import os
import uuid
from pathlib import Path

import pytest
from ragflow_sdk import RAGFlow

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def fixture(name):
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def node(name, params, downstream, upstream):
    return {"obj": {"component_name": name, "params": params}, "downstream": downstream, "upstream": upstream}


def llm_canvas():
    """An LLM (answered by the mock LLM, which streams its reply word by word) into a Message."""
    return {
        "components": {
            "begin": node("Begin", {"mode": "conversational", "prologue": "Ask me."}, ["LLM:A"], []),
            "LLM:A": node(
                "LLM",
                {"llm_id": "deepseek-chat@DeepSeek", "sys_prompt": "Be brief.", "prompts": [{"role": "user", "content": "{sys.query}"}]},
                ["Message:M"],
                ["begin"],
            ),
            "Message:M": node("Message", {"content": ["{LLM:A@content}"]}, [], ["LLM:A"]),
        },
        "globals": {},
        "graph": {"nodes": [], "edges": []},
    }


def env(name):
    value = os.environ.get(name)
    if not value:
        raise RuntimeError(f"{name} is not set: run this file through test/clients/ragflow-sdk.test.ts (npx vitest run test/clients)")
    return value


@pytest.fixture
def rag():
    return RAGFlow(api_key=env("CANVASFLOW_API_KEY"), base_url=env("CANVASFLOW_BASE_URL"))


def unique_title(prefix):
    return f"{prefix} {uuid.uuid4().hex[:8]}"


def make_agent(rag, dsl, prefix="agent", description=None):
    """create_agent returns nothing: the agent is found again by its (unique) title."""
    title = unique_title(prefix)
    assert rag.create_agent(title=title, dsl=dsl, description=description) is None
    found = [a for a in rag.list_agents(page_size=100) if a.title == title]
    assert len(found) == 1, f"list_agents should show {title!r} once"
    return found[0]


def test_create_agent_and_list_agents(rag):
    title = unique_title("Echo")
    rag.create_agent(title=title, dsl=fixture("hello.json"), description="greets you")
    agents = {a.title: a for a in rag.list_agents(page=1, page_size=100, orderby="update_time", desc=True)}
    assert title in agents
    agent = agents[title]
    assert len(agent.id) == 32
    assert agent.description == "greets you"
    # The DSL comes back as the SDK's object tree.
    assert agent.dsl.components.begin.obj.component_name == "Begin"


def test_create_agent_with_a_duplicate_title_or_an_invalid_dsl_raises(rag):
    agent = make_agent(rag, fixture("hello.json"), "Dup")
    with pytest.raises(Exception, match="already exists"):
        rag.create_agent(title=agent.title.upper(), dsl=fixture("hello.json"))
    bad = fixture("hello.json")
    bad["components"]["begin"]["obj"]["params"]["mode"] = "sideways"
    with pytest.raises(Exception, match="/dsl/components/begin/obj/params/mode"):
        rag.create_agent(title=unique_title("Bad"), dsl=bad)


def test_get_agent(rag):
    agent = make_agent(rag, fixture("hello.json"), "Get", description="d")
    got = rag.get_agent(agent.id)
    assert got.id == agent.id
    assert got.title == agent.title
    assert got.dsl.components.to_json().keys() == {"begin", "Message:Greet"}
    with pytest.raises(Exception, match="canvas not found"):
        rag.get_agent("0" * 32)


def test_update_agent_changes_only_what_it_is_given(rag):
    agent = make_agent(rag, fixture("hello.json"), "Before", description="old")
    new_title = unique_title("After")
    assert rag.update_agent(agent.id, title=new_title) is None
    got = rag.get_agent(agent.id)
    assert (got.title, got.description) == (new_title, "old")
    rag.update_agent(agent.id, description="new", dsl=fixture("user-fill-up.json"))
    got = rag.get_agent(agent.id)
    assert (got.title, got.description) == (new_title, "new")
    assert "UserFillUp:Details" in got.dsl.components.to_json()


def test_create_session(rag):
    agent = make_agent(rag, fixture("hello.json"), "Session")
    session = agent.create_session()
    assert len(session.id) == 32
    assert session.agent_id == agent.id
    assert session.message == [{"role": "assistant", "content": "Hi! Tell me your name and I will greet you."}]
    named = agent.create_session(name="named", user_id="end-user-1")
    assert (named.name, named.user_id) == ("named", "end-user-1")


def test_ask_streaming_yields_the_reply_piece_by_piece(rag):
    agent = make_agent(rag, llm_canvas(), "Stream")
    session = agent.create_session()
    pieces = [m.content for m in session.ask("hello there", stream=True)]
    # The mock LLM streams word by word; each Message is a delta, not the text so far.
    assert len(pieces) > 1
    assert "".join(pieces) == "[mock reply] You said: hello there"
    assert all(m.role == "assistant" for m in session.ask("again", stream=True))


def test_ask_non_streaming_returns_the_whole_reply_and_a_second_turn_sees_the_first(rag):
    agent = make_agent(rag, fixture("hello.json"), "Turns")
    session = agent.create_session()
    first = list(session.ask("Ada", stream=False))
    assert [m.content for m in first] == ["Hello, Ada! This is turn 1."]
    assert next(session.ask("Bob", stream=False)).content == "Hello, Bob! This is turn 2."
    llm_session = make_agent(rag, llm_canvas(), "Whole").create_session()
    assert next(llm_session.ask("hi", stream=False)).content == "[mock reply] You said: hi"


def test_ask_with_inputs_resumes_a_paused_user_fill_up(rag):
    agent = make_agent(rag, fixture("user-fill-up.json"), "Badge")
    session = agent.create_session()
    # The run pauses at the form: the tips are the reply.
    assert [m.content for m in session.ask("a badge please", stream=True)] == ['You said "a badge please". Who is the badge for?']
    inputs = {
        "name": {"type": "line", "value": "Ada"},
        "colour": {"type": "options", "value": "green"},
        "note": {"type": "paragraph", "value": "speaker"},
    }
    assert next(session.ask("", stream=False, inputs=inputs)).content == "[green] Ada speaker"
    # Both turns are in the session's messages.
    [listed] = agent.list_sessions(id=session.id)
    assert [m["content"] for m in listed.message] == [
        "Let's make you a badge.",
        "a badge please",
        'You said "a badge please". Who is the badge for?',
        "",
        "[green] Ada speaker",
    ]


def test_ask_with_inputs_streaming_resumes_too(rag):
    agent = make_agent(rag, fixture("user-fill-up.json"), "Badge stream")
    session = agent.create_session()
    next(session.ask("hi", stream=False))
    reply = "".join(m.content for m in session.ask("", stream=True, inputs={"name": {"value": "Bo"}, "colour": {"value": "red"}}))
    assert reply.strip() == "[red] Bo"


def test_list_sessions(rag):
    agent = make_agent(rag, fixture("hello.json"), "List")
    ids = [agent.create_session().id for _ in range(3)]
    listed = agent.list_sessions(page=1, page_size=30, orderby="create_time", desc=True)
    assert sorted(s.id for s in listed) == sorted(ids)
    assert all(s.agent_id == agent.id for s in listed)
    assert len(agent.list_sessions(page=1, page_size=2)) == 2
    assert [s.id for s in agent.list_sessions(id=ids[1])] == [ids[1]]


def test_delete_sessions(rag):
    agent = make_agent(rag, fixture("hello.json"), "Delete sessions")
    kept, gone = agent.create_session(), agent.create_session()
    agent.delete_sessions(ids=[gone.id])
    assert [s.id for s in agent.list_sessions()] == [kept.id]
    # No ids and no delete_all deletes nothing, as in RAGFlow.
    agent.delete_sessions()
    assert len(agent.list_sessions()) == 1
    with pytest.raises(Exception, match="doesn't own the session"):
        agent.delete_sessions(ids=["0" * 32])
    agent.create_session()
    agent.delete_sessions(delete_all=True)
    assert agent.list_sessions() == []


def test_delete_agent(rag):
    agent = make_agent(rag, fixture("hello.json"), "Delete")
    assert rag.delete_agent(agent.id) is None
    assert agent.id not in [a.id for a in rag.list_agents(page_size=100)]
    with pytest.raises(Exception, match="canvas not found"):
        rag.get_agent(agent.id)
    with pytest.raises(Exception, match="Only the owner of the agent is authorized"):
        rag.delete_agent(agent.id)


@pytest.mark.parametrize("key", ["ragflow-not-a-key", ""])
def test_a_bad_key_raises(rag, key):
    base_url = env("CANVASFLOW_BASE_URL")
    with pytest.raises(Exception, match=r"^<Unauthorized '401: Unauthorized'>$"):
        RAGFlow(api_key=key, base_url=base_url).list_agents()
    with pytest.raises(Exception, match="Unauthorized"):
        RAGFlow(api_key=key, base_url=base_url).create_agent(title=unique_title("Nope"), dsl=fixture("hello.json"))
    # Nothing was created with it.
    assert not [a for a in rag.list_agents(page_size=100) if a.title.startswith("Nope")]
