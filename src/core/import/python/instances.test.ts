import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readAnnotation } from './annotation.ts';
import { instanceOf } from './instances.ts';
import { inlineDatabaseProperties, readPythonModule } from './module.ts';
import { schemaOf, scopeOf } from './schemaOf.ts';

// A home thermostat's state, in pydantic's shapes: an Enum, nested models with defaults written
// every way pydantic takes them, a factory lambda building models, a required field.
const MODEL = `
from enum import Enum
from typing import Dict, List, Optional
from pydantic import BaseModel, Field

class Mode(str, Enum):
    HEAT = "heat"
    COOL = "cool"
    OFF = "off"

class Schedule(BaseModel):
    start: int = Field(6, description="Hour it starts")
    target: float = Field(default=20.5)
    mode: Mode = Mode.HEAT

class Room(BaseModel):
    name: str
    sensors: List[str] = Field(default_factory=list)
    schedule: Schedule = Field(default_factory=Schedule)

class Home(BaseModel):
    mode: Mode = Field(
        Mode.OFF,
        description="What the system does now",
    )
    away: bool = False
    note: Optional[str] = None
    rooms: Dict[str, Room] = Field(
        default_factory=lambda: {
            "hall": Room(name="hall", schedule=Schedule(start=7, mode=Mode.COOL)),
        }
    )

class Broken(BaseModel):
    made: str = Field(default_factory=make_name)
    owner: str = Field(...)
`;

const scope = scopeOf([readPythonModule(MODEL)]);
const make = (given: unknown, type = 'Home') =>
  instanceOf(given as never, readAnnotation(type), scope);

describe('instanceOf: data read as pydantic reads it, defaults filled', () => {
  it('fills every field the data leaves out with its default, nested models included', () => {
    expect(make({})).toEqual({
      value: {
        mode: 'off',
        away: false,
        note: null,
        rooms: {
          hall: {
            name: 'hall',
            sensors: [],
            schedule: { start: 7, target: 20.5, mode: 'cool' },
          },
        },
      },
    });
  });

  it('reads the fields given by their types, a given map replacing the factory’s', () => {
    expect(make({ away: true, rooms: { den: { name: 'den', schedule: { target: 18 } } } })).toEqual(
      {
        value: {
          mode: 'off',
          away: true,
          note: null,
          rooms: {
            den: { name: 'den', sensors: [], schedule: { start: 6, target: 18, mode: 'heat' } },
          },
        },
      },
    );
  });

  it('says why when a field has no default or a default only running code would give', () => {
    expect(make({}, 'Room')).toEqual({ why: 'Room.name: required, and not given' });
    expect(make({ owner: 'x' }, 'Broken')).toEqual({
      why: 'Broken.made: its default is made by make_name()',
    });
    expect(make({ made: 'm' }, 'Broken')).toEqual({ why: 'Broken.owner: required, and not given' });
  });

  it('types an Enum field as its members’ values', () => {
    expect(schemaOf(readAnnotation('Mode'), scope, new Set())).toEqual({
      type: 'string',
      enum: ['heat', 'cool', 'off'],
    });
  });

  it('never throws, whatever a default says (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (text) => {
        const one = scopeOf([
          readPythonModule(`class M(BaseModel):\n    x: int = ${text || '0'}\n`),
        ]);
        const out = instanceOf({}, readAnnotation('M'), one);
        expect('value' in out || 'why' in out).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('inlineDatabaseProperties', () => {
  it('writes a property that returns a path into the database where it is used', () => {
    const source = [
      'class Kit(ToolKitBase):',
      '    @property',
      '    def phone(self):',
      '        """The phone."""',
      '        return self.db.device',
      '',
      '    @property',
      '    def busy(self):',
      '        return self.db.device.calls > 0',
      '',
      '    def mute(self):',
      '        self.phone.muted = True',
      '        if self.phone == None:',
      '            return False',
      '        return self.busy',
      '',
    ].join('\n');
    const out = inlineDatabaseProperties(source);
    expect(out).toContain('        self.db.device.muted = True');
    expect(out).toContain('        if self.db.device == None:');
    // Only a bare path is written out; a property that computes stays as it was.
    expect(out).toContain('        return self.busy');
    expect(out).toContain('        return self.db.device\n');
  });
});
