"""PyBaMM side of the battery problem: one SPMe constant-current discharge per design, and the stack mass model.

Speed: the design quantities (porosities, active material fractions, particle radii, thicknesses, current) are PyBaMM
input parameters and every electrode/particle domain uses `SymbolicUniform1DSubMesh`, whose node positions scale with
the (input) domain length. The model is therefore parameterised, meshed and discretised once per process, and each
design is only an IDAKLU solve, instead of re-processing and re-meshing per design (README, "Measured", gives the
time of one evaluation). Tests check this against an ordinary per-design `pybamm.Simulation`.

Mass model, per unit electrode area (kg/m^2), of the cell stack: both current collectors, both electrodes (active
material + binder/conductive additive + electrolyte in the pores), and the separator with electrolyte in its pores.
- Active material densities come from Chen2020's electrode densities (1657 and 3262 kg/m^3), which are dry coating
  densities of electrodes without binder (porosity + active fraction = 1), divided by Chen2020's active fractions:
  graphite 2209 kg/m^3 and NMC811 4905 kg/m^3, in line with their crystallographic densities (~2.2-2.3 and
  ~4.7-4.9 g/cm^3).
- Binder and conductive additive fill the remaining solid fraction 1 - porosity - active fraction at 1840 kg/m^3: a
  1:1 volume mix of PVDF (1.78 g/cm^3, its handbook density) and Super P-type carbon black (~1.9 g/cm^3 skeletal
  density; 1.8-2.1 is reported across grades).
- Electrolyte 1200 kg/m^3 for Chen2020's 1 M LiPF6 in EC:EMC 3:7 (w/w) (Nyman et al. 2008), estimated from EC
  (1.32 g/cm^3) and EMC (1.01 g/cm^3) mixed 3:7 by mass (1.09 g/cm^3) plus 152 g/L of LiPF6 taking ~6 % of the volume.
  Values up to 1280 kg/m^3 are also quoted; that would add < 1 % to the reference stack mass.
- Separator: Chen2020's 397 kg/m^3 taken as the dry porous film, plus electrolyte in its 47 % porosity.
- Current collectors: Chen2020's Cu (8960 kg/m^3, 12 um) and Al (2700 kg/m^3, 16 um) foils, half of each per unit
  electrode area: wound cells coat both sides of each foil, and Chen2020's electrode area (0.1027 m^2, which gives
  the LG M50's 5 Ah) counts both sides (0.79 m of foil fits a 21700 can; 1.58 m would not). Counting whole foils
  would lower all specific energies and powers by ~13 %.

The module imports only pybamm and the standard library, never the `problems` package, so that the worker process can
run it as a script: importing `problems` pulls in TensorFlow through trieste, start-up time and memory the worker does
not need.
"""

from __future__ import annotations

import math
import sys
from multiprocessing.connection import Connection

import pybamm

FARADAY = 96485.33212  # C/mol
ELECTROLYTE_DENSITY = 1200.0  # kg/m^3
INACTIVE_SOLID_DENSITY = 1840.0  # kg/m^3, binder + conductive additive
COLLECTOR_SHARE = 0.5  # each current collector foil is coated on both sides, so it serves two unit cells
# Stoichiometries at 0 % state of charge of the LG M50 (Chen et al. 2020, J. Electrochem. Soc. 167 080534); full
# charge is Chen2020's initial concentration in each electrode, kept for every design.
EMPTY_STOICHIOMETRY = {"Negative": 0.0279, "Positive": 0.9084}
# Coarse but adequate: in spot checks over the design space, energies within ~2 % of those on a 60/30/60-point,
# 150-radial-point mesh, and 0.1 % at the reference design; a finer mesh costs set-up time, not much solve time.
VAR_PTS = {"x_n": 20, "x_s": 10, "x_p": 20, "r_n": 40, "r_p": 40}
SYMBOLIC_DOMAINS = ("negative electrode", "separator", "positive electrode", "negative particle", "positive particle")
# Final time as a multiple of the nominal discharge time 1/C-rate; a run that reaches it is a failure.
FINAL_TIME_FACTOR = 2.0
_COMPLETE = "event: Minimum voltage [V]"

ELECTRODES = ("Negative", "Positive")
C_RATE = "C-rate"
# Chen2020's LG M50 electrodes with 5 % binder/additive taken from the active material, discharged at 1C.
REFERENCE_DESIGN = {
    "negative porosity": 0.25,
    "negative active material volume fraction": 0.70,
    "negative particle radius [um]": 5.86,
    "negative thickness factor": 1.0,
    "positive porosity": 0.335,
    "positive active material volume fraction": 0.615,
    "positive particle radius [um]": 5.22,
    "positive thickness factor": 1.0,
    C_RATE: 1.0,
}


class Simulator:
    """Chen2020 SPMe built once; `run` evaluates one design."""

    def __init__(self) -> None:
        self.chen2020 = pybamm.ParameterValues("Chen2020")
        electrode_area = self.chen2020["Electrode height [m]"] * self.chen2020["Electrode width [m]"]
        self.area = electrode_area * self.chen2020["Number of electrodes connected in parallel to make a cell"]
        parameters = self.chen2020.copy()
        parameters.update({name: "[input]" for name in self.inputs(REFERENCE_DESIGN)})
        model = pybamm.lithium_ion.SPMe(options={"calculate discharge energy": "true"})
        submesh_types = dict(model.default_submesh_types)
        submesh_types.update({domain: pybamm.SymbolicUniform1DSubMesh for domain in SYMBOLIC_DOMAINS})
        self._simulation = pybamm.Simulation(
            model,
            parameter_values=parameters,
            var_pts=VAR_PTS,
            submesh_types=submesh_types,
            solver=pybamm.IDAKLUSolver(rtol=1e-6, atol=1e-8),
        )

    def inputs(self, design: dict[str, float]) -> dict[str, float]:
        """PyBaMM input parameters of a design given in natural units, keyed "{electrode} {variable}" and "C-rate".

        The current is the C-rate times the design's own capacity, so that 1C discharges any design in about an hour.
        """
        inputs = {}
        for electrode in ELECTRODES:
            prefix, chen2020_thickness = electrode.lower(), self.chen2020[f"{electrode} electrode thickness [m]"]
            inputs |= {
                f"{electrode} electrode porosity": design[f"{prefix} porosity"],
                f"{electrode} electrode active material volume fraction": design[
                    f"{prefix} active material volume fraction"
                ],
                f"{electrode} particle radius [m]": design[f"{prefix} particle radius [um]"] * 1e-6,
                f"{electrode} electrode thickness [m]": design[f"{prefix} thickness factor"] * chen2020_thickness,
            }
        inputs["Current function [A]"] = design[C_RATE] * self.capacity(inputs)
        return inputs

    def capacity(self, inputs: dict[str, float]) -> float:
        """Capacity [A.h] of the limiting electrode between full charge and Chen2020's 0 % SOC stoichiometries."""
        capacities = []
        for electrode in ELECTRODES:
            c_max = self.chen2020[f"Maximum concentration in {electrode.lower()} electrode [mol.m-3]"]
            full = self.chen2020[f"Initial concentration in {electrode.lower()} electrode [mol.m-3]"] / c_max
            active_volume = (
                self.area
                * inputs[f"{electrode} electrode thickness [m]"]
                * inputs[f"{electrode} electrode active material volume fraction"]
            )
            capacities.append(FARADAY * active_volume * c_max * abs(full - EMPTY_STOICHIOMETRY[electrode]) / 3600)
        return min(capacities)

    def areal_mass(self, inputs: dict[str, float]) -> float:
        """Stack mass per unit electrode area [kg/m^2] (see the module docstring for the densities)."""
        p = self.chen2020
        collectors = sum(
            p[f"{electrode} current collector density [kg.m-3]"] * p[f"{electrode} current collector thickness [m]"]
            for electrode in ELECTRODES
        )
        separator_density = p["Separator density [kg.m-3]"] + p["Separator porosity"] * ELECTROLYTE_DENSITY
        mass = COLLECTOR_SHARE * collectors + p["Separator thickness [m]"] * separator_density
        for electrode in ELECTRODES:
            porosity = inputs[f"{electrode} electrode porosity"]
            active = inputs[f"{electrode} electrode active material volume fraction"]
            active_density = (
                p[f"{electrode} electrode density [kg.m-3]"]
                / p[f"{electrode} electrode active material volume fraction"]
            )
            density = (
                active * active_density
                + (1.0 - porosity - active) * INACTIVE_SOLID_DENSITY
                + porosity * ELECTROLYTE_DENSITY
            )
            mass += inputs[f"{electrode} electrode thickness [m]"] * density
        return mass

    def run(self, design: dict[str, float]) -> tuple[float, float, str | None]:
        """(specific energy [Wh/kg], specific power [W/kg], failure reason or None) of one design."""
        inputs = self.inputs(design)
        final_time = FINAL_TIME_FACTOR * 3600.0 / design[C_RATE]
        try:
            solution = self._simulation.solve([0.0, final_time], inputs=inputs)
        except pybamm.SolverError as error:  # includes designs below the cut-off voltage at t = 0
            return 0.0, 0.0, f"solver error: {error}"
        if isinstance(solution, pybamm.EmptySolution):
            return 0.0, 0.0, "empty solution (infeasible at t = 0)"
        if solution.termination != _COMPLETE:
            return 0.0, 0.0, f"did not reach the cut-off voltage ({solution.termination})"
        energy = float(solution["Discharge energy [W.h]"].entries[-1])
        duration = float(solution.t[-1])
        if not (math.isfinite(energy) and energy > 0.0 and duration > 0.0):
            return 0.0, 0.0, f"degenerate discharge ({energy} W.h in {duration} s)"
        mass = self.area * self.areal_mass(inputs)
        return energy / mass, energy * 3600.0 / duration / mass, None


def serve(connection: Connection) -> None:
    """Worker loop: announce readiness, then answer one design per message until the parent closes the pipe.

    Any error a design provokes is reported as that design's failure, so one bad design never ends the worker.
    """
    simulator = Simulator()
    simulator.run(REFERENCE_DESIGN)  # the first solve sets the solver up; keep it out of any evaluation's time
    connection.send("ready")
    while True:
        try:
            design = connection.recv()
        except EOFError:
            return
        try:
            result = simulator.run(design)
        except Exception as error:  # noqa: BLE001 - reported as this design's failure, see docstring
            result = (0.0, 0.0, f"unexpected {type(error).__name__}: {error}")
        connection.send(result)


if __name__ == "__main__":
    serve(Connection(int(sys.argv[1])))
