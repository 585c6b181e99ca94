import { useState } from 'preact/hooks';
import { useApp } from '../screens/context';
import { AsyncSection, EmptyState } from '../ui/kit/async-section';
import { useAsync } from '../ui/kit/hooks';
import { getEvent, listEvents, type EventLog, type IntegrationEvent } from './integrations-api';

const when = (iso: string | undefined) => (iso ? new Date(iso).toLocaleString() : '');

/** "success" / "failed" as a badge. */
function EventStatus({ status }: { status: IntegrationEvent['status'] }) {
  return (
    <span class={`badge ${status === 'success' ? 'badge-active' : 'badge-closed'}`} data-testid="event-status">
      {status === 'success' ? 'Success' : 'Failed'}
    </span>
  );
}

/**
 * The events the integration received (newest first: type, status, time), for the admins of the
 * organization publishing it; choosing one shows its trace, log lines with their level and time,
 * errors and warnings marked.
 */
export function EventsPanel({ name }: { name: string }) {
  const { session } = useApp();
  const events = useAsync(() => listEvents(session.api, name), [session.api, name]);
  const [selected, setSelected] = useState<string | undefined>();
  return (
    <section class="org-panel" aria-labelledby="int-events-title" data-testid="integration-events">
      <div class="org-panel-header">
        <h2 id="int-events-title">Events</h2>
        <button type="button" onClick={() => events.retry()} data-testid="events-refresh">
          Refresh
        </button>
      </div>
      <p class="muted">What the integration received and how its handler answered. Only its publishers see these.</p>
      <AsyncSection state={events.state} what="the events" retry={events.retry}>
        {({ items }) =>
          items.length === 0 ? (
            <EmptyState message="No events yet. They appear once the integration is installed and runs." />
          ) : (
            <ul class="org-list int-events" data-testid="event-list">
              {items.map((event) => (
                <li
                  key={event.id}
                  class="int-event"
                  data-testid="event-row"
                  data-event-id={event.id}
                  data-status={event.status}
                >
                  <button
                    type="button"
                    class="int-event-button"
                    aria-expanded={selected === event.id}
                    data-testid="event-open"
                    onClick={() => setSelected(selected === event.id ? undefined : event.id)}
                  >
                    <code class="int-event-type">{event.payload.type ?? 'event'}</code>
                    <EventStatus status={event.status} />
                    <time class="muted" dateTime={event.createdAt}>
                      {when(event.createdAt)}
                    </time>
                  </button>
                  {selected === event.id && <EventTrace name={name} eventId={event.id} />}
                </li>
              ))}
            </ul>
          )
        }
      </AsyncSection>
    </section>
  );
}

function EventTrace({ name, eventId }: { name: string; eventId: string }) {
  const { session } = useApp();
  const trace = useAsync(() => getEvent(session.api, name, eventId), [session.api, name, eventId]);
  return (
    <div class="int-trace" data-testid="event-trace">
      <AsyncSection state={trace.state} what="the trace" retry={trace.retry}>
        {({ trace: { logs } }) =>
          logs.length === 0 ? (
            <p class="muted">The handler logged nothing.</p>
          ) : (
            <ol class="int-logs">
              {logs.map((log, i) => (
                <LogLine key={i} log={log} />
              ))}
            </ol>
          )
        }
      </AsyncSection>
    </div>
  );
}

function LogLine({ log }: { log: EventLog }) {
  const level = log.level ?? 'info';
  return (
    <li class={`int-log int-log-${level}`} data-testid="trace-line" data-level={level}>
      <span class="int-log-level">{level}</span>
      <time class="int-log-time" dateTime={log.timestamp}>
        {log.timestamp ? new Date(log.timestamp).toLocaleTimeString() : ''}
      </time>
      <span class="int-log-message">{log.message ?? ''}</span>
    </li>
  );
}
