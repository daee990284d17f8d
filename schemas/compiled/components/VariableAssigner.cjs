// Generated from schemas/components/VariableAssigner.schema.json by `npm run schemas:compile`; do not edit.
"use strict";
module.exports = validate20;
module.exports.default = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://canvasflow.dev/schemas/components/VariableAssigner.schema.json","title":"VariableAssigner params","description":"Changes conversation variables (env.x) and component outputs (cpn@var, e.g. Loop variables), one operator per row, in order. A failing row undoes the rows before it.","type":"object","properties":{"variables":{"type":"array","description":"The assignments, applied in order.","items":{"type":"object","properties":{"variable":{"type":["string","null"],"description":"Bare reference to the variable written: env.x, or cpn@var with an optional .path (braces optional)."},"operator":{"type":["string","null"],"description":"overwrite, clear, set, append, extend, remove_first, remove_last, +=, -=, *=, /=."},"parameter":{"description":"overwrite/append/extend: a reference whose value is used (anything that is not a reference is used as a literal value). set: the new value; a string is rendered as a template, then converted to the variable's type (number, boolean, list or object). +=, -=, *=, /=: a number (numeric text accepted). clear, remove_first, remove_last: none."}}}}}};

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://canvasflow.dev/schemas/components/VariableAssigner.schema.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate20.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.variables !== undefined){
let data0 = data.variables;
if(Array.isArray(data0)){
const len0 = data0.length;
for(let i0=0; i0<len0; i0++){
let data1 = data0[i0];
if(data1 && typeof data1 == "object" && !Array.isArray(data1)){
if(data1.variable !== undefined){
let data2 = data1.variable;
if((typeof data2 !== "string") && (data2 !== null)){
const err0 = {instancePath:instancePath+"/variables/" + i0+"/variable",schemaPath:"#/properties/variables/items/properties/variable/type",keyword:"type",params:{type: schema31.properties.variables.items.properties.variable.type},message:"must be string,null",schema:schema31.properties.variables.items.properties.variable.type,parentSchema:schema31.properties.variables.items.properties.variable,data:data2};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data1.operator !== undefined){
let data3 = data1.operator;
if((typeof data3 !== "string") && (data3 !== null)){
const err1 = {instancePath:instancePath+"/variables/" + i0+"/operator",schemaPath:"#/properties/variables/items/properties/operator/type",keyword:"type",params:{type: schema31.properties.variables.items.properties.operator.type},message:"must be string,null",schema:schema31.properties.variables.items.properties.operator.type,parentSchema:schema31.properties.variables.items.properties.operator,data:data3};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
}
else {
const err2 = {instancePath:instancePath+"/variables/" + i0,schemaPath:"#/properties/variables/items/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.properties.variables.items.type,parentSchema:schema31.properties.variables.items,data:data1};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
}
else {
const err3 = {instancePath:instancePath+"/variables",schemaPath:"#/properties/variables/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.variables.type,parentSchema:schema31.properties.variables,data:data0};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
}
else {
const err4 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":{"variables":true},"dynamicProps":false,"dynamicItems":false};

